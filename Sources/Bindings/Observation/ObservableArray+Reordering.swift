// The standard library's reordering algorithms (`sort()`, `reverse()`, `shuffle()`,
// `partition(by:)`) are `mutating` methods of `MutableCollection`, which a `let` array
// cannot call, though a model holds its `ObservableArray` as a `let`. These methods of
// the class itself can be called on one; each sends one changeset, the difference
// between the order before and after (see `batchUpdates(_:)`).

extension ObservableArray {
    /// Sorts the elements in place with `areInIncreasingOrder`, sending one changeset.
    ///
    /// ```swift
    /// board.tasks.sort { $0.count < $1.count }
    /// ```
    public func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
        try batchUpdates { try $0.sort(by: areInIncreasingOrder) }
    }

    /// Reverses the elements in place, sending one changeset.
    public func reverse() {
        batchUpdates { $0.reverse() }
    }

    /// Shuffles the elements in place, sending one changeset.
    public func shuffle() {
        batchUpdates { $0.shuffle() }
    }

    /// Shuffles the elements in place with `generator`, sending one changeset.
    public func shuffle<G: RandomNumberGenerator>(using generator: inout G) {
        batchUpdates { $0.shuffle(using: &generator) }
    }

    /// Reorders the elements so that those matching `belongsInSecondPartition` come
    /// after the others, sending one changeset; returns the index of the first one.
    ///
    /// ```swift
    /// let firstDone = board.tasks.partition { $0.hasPrefix("done") }
    /// ```
    @discardableResult
    public func partition(by belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Int {
        var pivot = 0
        try batchUpdates { pivot = try $0.partition(by: belongsInSecondPartition) }
        return pivot
    }
}

extension ObservableArray where Element: Comparable {
    /// Sorts the elements in place in increasing order, sending one changeset.
    ///
    /// ```swift
    /// let tasks = ObservableArray(["ship", "write"])
    /// tasks.sort()   // a `let` is enough
    /// ```
    public func sort() {
        batchUpdates { $0.sort() }
    }
}
