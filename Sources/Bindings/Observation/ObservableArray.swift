/// An array whose changes can be observed: thread-safe, and a publisher (``changes``) of
/// ``CollectionChange`` values that tell exactly what each change did.
///
/// ```swift
/// final class Board: KeyValueObservable { let tasks = ObservableArray<String>() }
/// let board = Board()
/// let c = board.tasks.changes.sink { print($0.changes) }
/// board.tasks.append("write the spec")                  // [.insert("write the spec", at: 0)]
/// board.tasks.batchUpdates { $0.remove(at: 0); $0.append("ship it") }
///                                                      // [.update("ship it", at: 0)]
/// ```
///
/// It is a class: a model holds it as a `let`, and every mutation is a method of it, so
/// it needs no `var`. Each mutation sends one changeset, describing what it did by
/// position (`append` an `.insert`, setting an element an `.update`, `replaceSubrange`
/// updates where elements were replaced one for one, then deletions or insertions); a
/// mutation that changes nothing (`removeAll()` of an empty array, `append(contentsOf:)`
/// of nothing) sends nothing. ``batchUpdates(_:)`` and ``replace(with:)`` compare the
/// contents before and after instead, and send the smallest difference they find. So do
/// its `sort()`, `sort(by:)`, `reverse()`, `shuffle()` and `partition(by:)`, methods of
/// the class (the standard library's are `mutating`, which a `let` cannot call); other
/// algorithms that work swap by swap, called on a `var`, send one changeset per swap:
/// run them inside ``batchUpdates(_:)``.
///
/// Thread safety: one lock guards the elements; each mutation is atomic, and every
/// subscriber receives the changesets in the order they were applied. Sequences of
/// calls are not atomic together (an index read with `count` may be gone by the next
/// call when other threads edit too): take a snapshot with ``elements``, or edit with
/// ``batchUpdates(_:)``. Subscribing does not keep the array alive: when it is released,
/// its subscribers receive `.finished`.
public final class ObservableArray<Element> {
    // `@usableFromInline`, with what a change touches: the mutations are inlined where
    // the element type is known (run as generic code, looking up generic metadata was
    // most of an append).
    @usableFromInline let storage: Storage
    /// Carries the changesets. Also what a computed key path that reads the array
    /// depends on: every public read reports it (see ``trackRead()``).
    @usableFromInline let channel: PropertyChannel<CollectionChange<Element>>

    /// The elements. `@unchecked Sendable`: every field is only touched with the
    /// channel's lock held (the reads, `mutate`'s body, `commit`, the channel's `read`,
    /// a subscription's registration), and in `init`; except `spareEdits` (see there).
    /// `@exclusivity(unchecked)`: the lock orders every access, and no access spans a
    /// call that could touch the field again (a mutation's body runs no user code);
    /// dynamic checks measured 40 per cent of an append.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) @usableFromInline var elements: [Element]
        /// Counts the changes applied, so that ``ObservableArray/batchUpdates(_:)`` can
        /// tell whether the array changed while its body ran.
        @exclusivity(unchecked) @usableFromInline var version: UInt = 0
        /// The thread that applied the last change, recorded while a `compareAndSwap` is
        /// planning (`planners` is not 0): the only time it is read, by that method.
        @exclusivity(unchecked) @usableFromInline var lastWriter: UInt = 0
        /// How many `compareAndSwap` calls are running (so that a change records its
        /// thread only then: reading the thread's identifier measured 1.5 ns of an append).
        @exclusivity(unchecked) @usableFromInline var planners = 0
        /// The edits buffer of an earlier change, emptied, for the next change to fill
        /// (an empty array without a buffer of its own while a change has it). Taken and
        /// given back by swapping, so that neither releases anything:
        /// once its subscribers let go of a changeset, its buffer is reused, so that a
        /// change allocates no edits array (see ``ObservableArray/mutate(_:)``).
        ///
        /// The deliverer's: written only by the thread delivering the channel's changes,
        /// during its delivery, without the lock (``ObservableArray/recycle(_:)``), and
        /// read or written under the lock only while no delivery is under way. The
        /// channel's state word orders the two: a delivery starts and ends with
        /// read-modify-writes of it, and the lock is taken with one.
        @exclusivity(unchecked) @usableFromInline var spareEdits: [CollectionChange<Element>.Edit] = []

        init(_ elements: [Element]) { self.elements = elements }
    }

    /// Creates an empty array.
    ///
    /// ```swift
    /// let tasks = ObservableArray<String>()
    /// ```
    public init() {
        let storage = Storage([])
        self.storage = storage
        channel = PropertyChannel(key: nil, ownerID: nil, read: { CollectionChange.fromEmpty(to: storage.elements) })
        // A key path's observation that depends on the array wants its indexed changes.
        channel.linksWantOld = true
        // Changes reach `changes` subscribers at once in a batch; key paths and
        // reactions that read the array wait for the flush.
        channel.notifiesInBatches = true
    }

    /// Creates an array of the elements of a sequence.
    ///
    /// ```swift
    /// let tasks = ObservableArray(["write", "ship"])
    /// ```
    public convenience init(_ elements: some Sequence<Element>) {
        self.init()
        storage.elements = Array(elements)
    }

    /// Creates an array of `count` copies of `repeatedValue`.
    public convenience init(repeating repeatedValue: Element, count: Int) {
        self.init()
        storage.elements = Array(repeating: repeatedValue, count: count)
    }

    /// The array is gone: its subscribers finish, and are released.
    deinit { channel.close() }

    // MARK: Reads

    /// Reports a read of the array to a dependency tracking under way on this thread (a
    /// computed key path being evaluated), as an `@Observed` getter does.
    @inline(__always)
    func trackRead() {
        channel.trackRead()
    }

    /// A copy of the elements, as they are now.
    ///
    /// ```swift
    /// let snapshot = tasks.elements   // an Array, unaffected by later changes
    /// ```
    public var elements: [Element] {
        trackRead()
        return channel.withLock { storage.elements }
    }

    /// The number of elements.
    public var count: Int {
        trackRead()
        return channel.withLock { storage.elements.count }
    }

    /// Whether the array is empty.
    public var isEmpty: Bool {
        trackRead()
        return channel.withLock { storage.elements.isEmpty }
    }

    /// The first element, or `nil` if the array is empty (read atomically).
    public var first: Element? {
        trackRead()
        return channel.withLock { storage.elements.first }
    }

    /// The last element, or `nil` if the array is empty (read atomically).
    public var last: Element? {
        trackRead()
        return channel.withLock { storage.elements.last }
    }

    /// The array as `Array`'s description prints it: `["a", "b"]`.
    public var description: String { elements.description }

    // MARK: Changing

    /// Applies `body` to the elements with the channel's lock held, and sends the edits
    /// it appends as one changeset (none if it appends none), in order with every other
    /// change. `body` must not run user code: what it removes, it hands to the caller to
    /// release after the lock is given up (an element's `deinit` may use the array).
    ///
    /// Always inlined into the mutation (each is `@inlinable`, specialized where the
    /// element type is known): `body` and the closures below then fold into it. Inlined
    /// only at the optimizer's discretion, it was not, and `body` was an indirect call
    /// from a closure that was another (`append` with one sink measured 31 -> 27 ns).
    @inlinable @inline(__always) @discardableResult
    func mutate<Result>(_ body: (inout [Element], inout [CollectionChange<Element>.Edit]) -> Result) -> Result {
        let storage = self.storage
        let channel = self.channel
        if _slowPath(channel.wantsPrior) { announce(planning: { _ = body(&$0, &$1) }) }
        var result: Result?
        // Made under the lock and passed along as it is delivered: no event is made unless
        // it must wait in the queue. (An event holding a changeset is large enough that
        // the compiler copies and destroys it through value witnesses, with a metadata
        // look-up each time: three per append, about a fifth of it.)
        channel.sendInlined(
            makingUnderLock: { () -> (change: CollectionChange<Element>, indexed: IndexedChange?)? in
                // The spare buffer is the deliverer's (see `spareEdits`): taken only when
                // nobody delivers, as this change will then be delivered by this thread.
                var edits: [CollectionChange<Element>.Edit] = []
                if !channel.isDelivering { swap(&edits, &storage.spareEdits) }
                result = body(&storage.elements, &edits)
                guard !edits.isEmpty else {
                    if !channel.isDelivering { swap(&edits, &storage.spareEdits) }
                    return nil
                }
                let indexed = commit(edits)
                return (CollectionChange(collection: storage.elements, changes: consume edits), indexed)
            },
            queuing: { sent in PropertyEvent(isPrior: false, old: nil, new: sent.change, indexed: sent.indexed) },
            callingEach: { observer, sent in Self.callChange(observer, sent.change, indexed: sent.indexed) },
            thenAsDeliverer: { sent in
                recycle(&sent.change.changes)
                // Usually `nil`: checked here, the compiler releases it only when it is
                // not, where it called `swift_release` on `nil` each time (measured,
                // A/B interleaved: append with one sink 25.2-26.3 -> 22.5-23.3 ns).
                if sent.indexed != nil { sent.indexed = nil }
            })
        return result!
    }

    /// After a change's delivery, by its deliverer: empties the changeset's edits buffer
    /// and keeps it for the next change, in `spareEdits`. Emptied without the lock (an
    /// element's `deinit` may use the array); in place once nobody else holds the
    /// changeset (a subscriber that waits for demand keeps it, and then emptying makes a
    /// new buffer). A buffer grown large by one big change is dropped rather than kept
    /// for good.
    @inlinable
    func recycle(_ edits: inout [CollectionChange<Element>.Edit]) {
        guard edits.capacity <= 16 else { return }
        edits.removeAllKeepingCapacity()
        // The spare is empty (this change took it): swapped, the buffer moves, and the
        // changeset is left with the empty array, which releases nothing that matters.
        swap(&storage.spareEdits, &edits)
    }

    /// Under the lock, once the elements are changed: counts the change, and returns the
    /// indexed change that a model's observer of a key path to this array gets (see
    /// `ObservableArray+KeyValueObserving.swift`), when some key path's observation
    /// depends on the array (its links count as wanting old values).
    @inlinable @inline(__always)
    func commit(_ edits: [CollectionChange<Element>.Edit]) -> IndexedChange? {
        storage.version &+= 1
        if storage.planners != 0 { storage.lastWriter = currentThreadID() }
        channel.countChange()
        return channel.wantsOld ? indexedChange(for: edits) : nil
    }

    /// Sends the prior notice of a change about to be made, when some key path's observer
    /// asked for prior notices (`.prior`): the links of `\.tasks`, and of key paths that
    /// read the array, pass it on with the indexes of the change, as Foundation's
    /// `willChange(_:valuesAt:for:)` announces a to-many property's. `body` is a
    /// ``mutate(_:)`` body, run here on a copy of the elements to learn its edits (it
    /// runs no user code; what it removes from the copy the elements still hold).
    @usableFromInline @inline(never)
    func announce(planning body: (inout [Element], inout [CollectionChange<Element>.Edit]) -> Void) {
        let (before, edits) = channel.withLock {
            var copy = storage.elements
            var edits: [CollectionChange<Element>.Edit] = []
            body(&copy, &edits)
            return (storage.elements, edits)
        }
        announce(edits, before: before)
    }

    /// Sends the prior notice of `edits`, about to be made to `before` (see
    /// ``announce(planning:)``). Another thread may change the array between the notice
    /// and the change: each change still gets its own notification after it.
    @usableFromInline
    func announce(_ edits: [CollectionChange<Element>.Edit], before: [Element]) {
        guard !edits.isEmpty else { return }
        channel.sendPrior(old: CollectionChange(collection: before, changes: []), indexed: indexedChange(for: edits))
    }

    /// Computes new contents with `plan` from a copy of the elements, outside the lock
    /// (it runs user code), then stores them if the array did not change meanwhile, and
    /// sends `plan`'s edits; if it did change, plans again from the new contents (a
    /// compare-and-swap loop). `plan` returns no edits for no change.
    func compareAndSwap(_ plan: ([Element]) throws -> (elements: [Element], edits: [CollectionChange<Element>.Edit])) rethrows {
        let storage = self.storage
        let me = currentThreadID()
        // Every change from here to the last check records its thread (see `lastWriter`).
        channel.withLock { storage.planners += 1 }
        defer { channel.withLock { storage.planners -= 1 } }
        var announced = false
        while true {
            let (before, version) = channel.withLock { (storage.elements, storage.version) }
            let (after, edits) = try plan(before)
            if edits.isEmpty { return }
            // Once per call: a plan made again (another thread changed the array) is the
            // same change for the observers.
            if !announced, channel.wantsPrior {
                announce(edits, before: before)
                announced = true
            }
            var replaced: [Element] = []   // released after the lock is given up
            var changedBy: UInt?
            channel.send(makingUnderLock: {
                guard storage.version == version else {
                    changedBy = storage.lastWriter
                    return nil
                }
                replaced = storage.elements
                storage.elements = after
                let indexed = commit(edits)
                return PropertyEvent(isPrior: false, old: nil, new: CollectionChange(collection: after, changes: edits), indexed: indexed)
            }, calling: Self.call)
            withExtendedLifetime(replaced) {}
            guard let changedBy else { return }
            // The body itself changed the array (through it, not through its argument):
            // it would change it again on every try. (`fatalError`, not `precondition`: a
            // release build prints its message.)
            if changedBy == me {
                fatalError(
                    "Bindings: an ObservableArray was changed from inside its own batchUpdates: edit the array the closure is given instead")
            }
        }
    }

    /// Applies the edits that `body` makes to the array it is given all at once, and
    /// sends them as one changeset: the difference between the contents before and
    /// after (see ``replace(with:)`` for how it is found). Nothing is sent if the
    /// contents did not change (when the elements can be compared: otherwise every
    /// element is reported updated).
    ///
    /// ```swift
    /// tasks.batchUpdates { $0.remove(at: 0); $0.append("ship it") }   // one changeset
    /// tasks.batchUpdates { $0.sort() }
    /// ```
    ///
    /// `body` edits a copy, without any lock held (it may read the array, or anything
    /// else). If another thread changes the array meanwhile, `body` runs again on the
    /// new contents, until it finishes on contents nobody changed (a compare-and-swap):
    /// keep it free of side effects beyond editing its argument. Changing the array
    /// itself from `body` (rather than the argument) stops the program with a message.
    /// An error thrown by `body` leaves the array unchanged.
    public func batchUpdates(_ body: (inout [Element]) throws -> Void) rethrows {
        try compareAndSwap { before in
            var after = before
            try body(&after)
            return (after, CollectionDiff.edits(from: before, to: after))
        }
    }

    /// Replaces the contents with `newElements`, sending the smallest difference found.
    ///
    /// ```swift
    /// let letters = ObservableArray(["a", "b", "c"])
    /// letters.replace(with: ["a", "c", "d"])   // [.delete(at: 1), .insert("d", at: 2)]
    /// ```
    ///
    /// How elements are compared depends on their type: `Hashable` elements with the
    /// standard library's `difference(from:)`, then `inferringMoves()` (an element that
    /// moved is one `.move`); `Equatable` elements with `difference(from:)` alone; other
    /// elements cannot be compared, so every position both have is an `.update` and the
    /// rest are deletions or insertions. A deletion and an insertion at the same place
    /// become one `.update`. Nothing is sent if the contents are equal.
    public func replace(with newElements: some Sequence<Element>) {
        let after = Array(newElements)
        compareAndSwap { before in (after, CollectionDiff.edits(from: before, to: after)) }
    }
}

// Checked: `storage` and `channel` are `let`s of `Sendable` types (`Storage` documents
// its fields); elements cross threads only when `Element` is itself `Sendable`.
extension ObservableArray: Sendable where Element: Sendable {}

extension ObservableArray: CustomStringConvertible {}

extension ObservableArray: ExpressibleByArrayLiteral {
    /// Creates an array of the literal's elements.
    ///
    /// ```swift
    /// let tasks: ObservableArray = ["write", "ship"]
    /// ```
    public convenience init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}
