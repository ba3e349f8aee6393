// The collection protocols of `ObservableArray`: reads under the lock (each tracked as
// a dependency), and each mutation sent as one changeset.

extension ObservableArray: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    /// Positions are `Int` offsets, from 0, as in `Array`.
    public typealias Index = Int
    /// The valid positions, a range from 0.
    public typealias Indices = Range<Int>
    /// A slice is a copy: an `ArraySlice` of the elements as they were when it was taken.
    public typealias SubSequence = ArraySlice<Element>
    /// Iterates over a snapshot of the elements, taken when iteration starts.
    public typealias Iterator = IndexingIterator<[Element]>

    /// Always 0.
    public var startIndex: Int {
        trackRead()
        return 0
    }

    /// The number of elements.
    public var endIndex: Int { count }

    /// Iterates over the elements as they are now: later changes do not affect it.
    ///
    /// ```swift
    /// for task in tasks { print(task) }
    /// ```
    public func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }

    /// The element at `position`; setting it replaces it and sends `.update(newValue,
    /// at: position)`.
    ///
    /// ```swift
    /// tasks[0] = "write the tests"   // [.update("write the tests", at: 0)]
    /// ```
    public subscript(position: Int) -> Element {
        get {
            trackRead()
            return channel.withLock { storage.elements[position] }
        }
        set {
            _ = mutate { elements, edits in
                let old = elements[position]
                elements[position] = newValue
                edits.append(.update(newValue, at: position))
                return old
            }
        }
    }

    /// A copy of the elements at `bounds`; setting it is ``replaceSubrange(_:with:)``.
    public subscript(bounds: Range<Int>) -> ArraySlice<Element> {
        get {
            trackRead()
            return channel.withLock { storage.elements[bounds] }
        }
        set { replaceSubrange(bounds, with: newValue) }
    }

    /// Calls `body` with the elements, as they are now, in contiguous storage.
    public func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<Element>) throws -> Result
    ) rethrows -> Result? {
        try elements.withContiguousStorageIfAvailable(body)
    }

    /// Calls `body` with the elements in contiguous storage to edit, in one batch (see
    /// ``batchUpdates(_:)``, whose rules apply: `body` may run more than once). The
    /// standard library's `sort()` and `partition(by:)` take this path, so each sends
    /// one changeset.
    public func withContiguousMutableStorageIfAvailable<Result>(
        _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> Result
    ) rethrows -> Result? {
        var result: Result?
        try batchUpdates { elements in result = try elements.withContiguousMutableStorageIfAvailable(body) }
        return result
    }

    /// A copy of the elements (what `Array(tasks)` calls): one atomic read.
    public func _copyToContiguousArray() -> ContiguousArray<Element> { ContiguousArray(elements) }

    /// Exchanges the elements at `i` and `j`: `.update` at both (nothing when `i == j`).
    @inlinable
    public func swapAt(_ i: Int, _ j: Int) {
        mutate { elements, edits in
            elements.swapAt(i, j)
            if i != j {
                let (low, high) = (Swift.min(i, j), Swift.max(i, j))
                edits.append(.update(elements[low], at: low))
                edits.append(.update(elements[high], at: high))
            }
        }
    }

    /// Replaces the elements at `subrange` with `newElements`: `.update` for each element
    /// replaced one for one, then deletions of the extra old elements (highest first) or
    /// insertions of the extra new ones (lowest first).
    ///
    /// ```swift
    /// let letters: ObservableArray = ["a", "b", "c"]
    /// letters.replaceSubrange(0..<2, with: ["x", "y", "z"])
    /// // [.update("x", at: 0), .update("y", at: 1), .insert("z", at: 2)]
    /// ```
    public func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        let inserted = Array(newElements)   // outside the lock: a collection may run user code
        _ = mutate { elements, edits in
            let removed = Array(elements[subrange])
            elements.replaceSubrange(subrange, with: inserted)
            edits = CollectionDiff.replacing(subrange, with: inserted)
            return removed
        }
    }

    /// Reserves room for `minimumCapacity` elements; sends nothing.
    public func reserveCapacity(_ minimumCapacity: Int) {
        channel.withLock { storage.elements.reserveCapacity(minimumCapacity) }
    }

    /// Appends `newElement`: `.insert(newElement, at: count)`.
    ///
    /// ```swift
    /// tasks.append("ship it")
    /// ```
    @inlinable
    public func append(_ newElement: Element) {
        mutate { elements, edits in
            edits.append(.insert(newElement, at: elements.count))
            elements.append(newElement)
        }
    }

    /// Appends the elements of `newElements`: one `.insert` each, in order (nothing is
    /// sent if it is empty).
    @inlinable
    public func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        let inserted = Array(newElements)
        mutate { elements, edits in
            edits = CollectionDiff.replacing(elements.count..<elements.count, with: inserted)
            elements.append(contentsOf: inserted)
        }
    }

    /// Inserts `newElement` at `i`: `.insert(newElement, at: i)`.
    @inlinable
    public func insert(_ newElement: Element, at i: Int) {
        mutate { elements, edits in
            elements.insert(newElement, at: i)
            edits.append(.insert(newElement, at: i))
        }
    }

    /// Inserts the elements of `newElements` at `i`: one `.insert` each, in order.
    @inlinable
    public func insert<C: Collection>(contentsOf newElements: C, at i: Int) where C.Element == Element {
        let inserted = Array(newElements)
        mutate { elements, edits in
            elements.insert(contentsOf: inserted, at: i)
            edits = CollectionDiff.replacing(i..<i, with: inserted)
        }
    }

    /// Removes and returns the element at `i`: `.delete(at: i)`.
    @discardableResult
    @inlinable
    public func remove(at i: Int) -> Element {
        mutate { elements, edits in
            let removed = elements.remove(at: i)
            edits.append(.delete(at: i))
            return removed
        }
    }

    /// Removes the elements at `bounds`: one `.delete` each, highest index first.
    @inlinable
    public func removeSubrange(_ bounds: Range<Int>) {
        _ = mutate { elements, edits in
            let removed = Array(elements[bounds])
            elements.removeSubrange(bounds)
            edits = CollectionDiff.replacing(bounds, with: [])
            return removed
        }
    }

    /// Removes and returns the first element: `.delete(at: 0)`. The array must not be empty.
    @discardableResult
    @inlinable
    public func removeFirst() -> Element {
        mutate { elements, edits in
            let removed = elements.removeFirst()
            edits.append(.delete(at: 0))
            return removed
        }
    }

    /// Removes the first `k` elements: one `.delete` each, highest index first.
    @inlinable
    public func removeFirst(_ k: Int) {
        _ = mutate { elements, edits in
            let removed = Array(elements.prefix(k))
            elements.removeFirst(k)
            edits = CollectionDiff.replacing(0..<k, with: [])
            return removed
        }
    }

    /// Removes and returns the last element: `.delete(at: count - 1)`. The array must not
    /// be empty.
    @discardableResult
    @inlinable
    public func removeLast() -> Element {
        mutate { elements, edits in
            let removed = elements.removeLast()
            edits.append(.delete(at: elements.count))
            return removed
        }
    }

    /// Removes the last `k` elements: one `.delete` each, highest index first.
    @inlinable
    public func removeLast(_ k: Int) {
        _ = mutate { elements, edits in
            let removed = Array(elements.suffix(k))
            elements.removeLast(k)
            edits = CollectionDiff.replacing(elements.count..<elements.count + k, with: [])
            return removed
        }
    }

    /// Removes and returns the last element, or returns `nil` (sending nothing) if the
    /// array is empty: atomic, so that several threads may drain one array.
    @discardableResult
    @inlinable
    public func popLast() -> Element? {
        mutate { elements, edits in
            guard let removed = elements.popLast() else { return nil }
            edits.append(.delete(at: elements.count))
            return removed
        }
    }

    /// Removes every element: one `.delete` each, highest index first (nothing is sent if
    /// the array is empty).
    @inlinable
    public func removeAll(keepingCapacity keepCapacity: Bool = false) {
        _ = mutate { elements, edits in
            let removed = elements
            elements.removeAll(keepingCapacity: keepCapacity)
            edits = CollectionDiff.replacing(0..<removed.count, with: [])
            return removed
        }
    }

    /// Removes the elements that satisfy `shouldBeRemoved`: one `.delete` each, highest
    /// index first. `shouldBeRemoved` runs without any lock held, and again if another
    /// thread changes the array meanwhile (see ``batchUpdates(_:)``).
    public func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        try compareAndSwap { before in
            var after: [Element] = []
            var edits: [CollectionChange<Element>.Edit] = []
            for (index, element) in before.enumerated() {
                if try shouldBeRemoved(element) { edits.append(.delete(at: index)) } else { after.append(element) }
            }
            return (after, edits.reversed())
        }
    }

    /// Appends the elements of `rhs` (``append(contentsOf:)``); `lhs` may be a `let`.
    ///
    /// ```swift
    /// board.tasks += ["test", "ship"]
    /// ```
    public static func += <S: Sequence>(lhs: ObservableArray, rhs: S) where S.Element == Element {
        lhs.append(contentsOf: rhs)
    }
}
