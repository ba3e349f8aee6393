import Synchronization

extension Publisher where Failure == Never {
    /// Republishes the elements of this publisher through an `@Observed` property: each
    /// value is set on the property (so its observers are notified, on the thread that
    /// sends), for as long as the property's model lives, as Combine's `assign(to:)` does
    /// for an `@Published` property.
    ///
    /// Pass the property's projection itself, `&model.$property`: that is how the
    /// assignment learns its model. It holds the model weakly, so no cycle forms when a
    /// model assigns to its own property, and nothing is returned to keep: the subscription
    /// ends when this publisher finishes or when the model deinitialises (which cancels
    /// it).
    ///
    /// ```swift
    /// final class Clock: KeyValueObservable {
    ///     @Observed var seconds = 0
    ///     init(ticks: some Publisher<Int, Never>) {
    ///         ticks.assign(to: &$seconds)   // lives as long as this clock
    ///     }
    /// }
    /// ```
    ///
    /// A copy of the projection (`var p = model.$seconds`, then `assign(to: &p)`) knows no
    /// model to set: nothing is assigned, unless the copy is set back on the property it
    /// came from (`model.$seconds = p`), which starts it there.
    ///
    /// Inlinable: where this publisher offers a fused sink (a property, a subject, a
    /// `share()` of one, and `map`, `filter`, `compactMap`, `removeDuplicates` and `scan`
    /// of those; see `Publisher._fusedSink`), the assignment is one closure on its
    /// channel, compiled here, with the same values, order and lifetime. Through a
    /// subscriber, whose code runs generic, a subject's value took 447 ns to assign.
    @inlinable
    public func assign(to published: inout Observed<Output>.Publisher) {
        let upstream = self
        published.request = .assign(PendingAssignment { write, list in
            upstream.startAssignment(writingWith: write, keptBy: list)
        })
    }

    /// Starts an `assign(to:)` (to an `@Observed` or a `@Published` property) whose values
    /// go to `write`, which returns `false` once the property is gone. `list` keeps the
    /// assignment for as long as the property lives.
    @inlinable
    func startAssignment(writingWith write: @escaping (Output) -> Bool, keptBy list: ObservedAssignments) {
        // The fused closure is let go of when its subscription ends, cancelled or with
        // its source: the token it holds then marks `end`, and the list forgets it.
        let end = AssignmentEnd()
        let token = AssignmentEndToken(end)
        let fused = _fusedSink { value in
            // A `false` needs no cancel here: the property is gone, and its end cancels
            // what `list` keeps.
            withExtendedLifetime(token) { _ = write(value) }
        }
        if let fused {
            list.add(fused, endedWith: end)
            return
        }
        subscribeAssignment(writingWith: write, keptBy: list)
    }

    /// `startAssignment`, through an ``ObservedAssignment`` subscriber.
    @usableFromInline
    func subscribeAssignment(writingWith write: @escaping (Output) -> Bool, keptBy list: ObservedAssignments) {
        let subscriber = ObservedAssignment<Output>(list: list, write: write)
        // Kept before subscribing: an upstream that completes at once leaves the list then.
        list.add(subscriber)
        subscribe(subscriber)
    }
}

/// An `assign(to:)` waiting for its model: `assign(to:)` leaves it in the projection it is
/// given, and the projection's setter, which runs when `assign(to:)` returns and knows the
/// model, starts it, once.
@usableFromInline
final class PendingAssignment<Value> {
    /// Starts the assignment, given how to set the property and the list that keeps it.
    @usableFromInline
    typealias Start = (_ write: @escaping (Value) -> Bool, _ list: ObservedAssignments) -> Void

    private let lock = Lock()
    /// Guarded by `lock`; taken when started.
    private var start: Start?

    @usableFromInline
    init(_ start: @escaping Start) {
        self.start = start
    }

    /// The starting closure, the first time only.
    @usableFromInline
    func take() -> Start? {
        lock.withLock {
            defer { start = nil }
            return start
        }
    }
}

/// What a projection (`$property`) asks the projection's setter to do.
///
/// The setter is where the property's storage key path is: `@Observed` keeps that key
/// path in its inlined accessors (see `Observed.subscript(_enclosingInstance:wrapped:storage:)`),
/// so code elsewhere that must set the property, an `assign(to:)`, sets the projection
/// through its key path with a `.store` request.
@usableFromInline
enum ProjectionRequest<Value> {
    /// Start this `assign(to:)`, given the projection.
    case assign(PendingAssignment<Value>)
    /// Store the projection's snapshot value, which an `assign(to:)` received, and notify
    /// the observers.
    case store
}

extension Observed {
    /// Starts `assignment` on `instance`, whose `assign(to:)` subscriptions `anchor`
    /// keeps: from the projection's setter, on the model's isolation. Each value is
    /// stored by setting the projection (its key path is `projected`) to one that
    /// carries it, a `.store` request, which the projection's setter stores.
    ///
    /// The key path is applied at run time: a write-back buffer, then the projection's
    /// getter and its setter. Specialized for each property (the key path an autoclosure),
    /// but the optimizer does not compile a key path captured by an escaping closure
    /// into the closure here (only a literal whose one use is the closure, and here it
    /// has others). The storage key path would be cheaper to apply, but must not leave
    /// the accessors (see the note at the top of them).
    @inlinable @inline(never)
    static func startAssignment<Instance: KeyValueObservable>(
        _ assignment: PendingAssignment<Value>, on instance: Instance, anchor: ChannelAnchor,
        channel: PropertyChannel<Value>, projected: @autoclosure () -> ReferenceWritableKeyPath<Instance, Publisher>
    ) {
        guard let start = assignment.take() else { return }
        let projected = projected()
        // Weak: the model must not keep itself alive through its own assignment, and a
        // value that arrives while it deinitialises must find it gone. Not `[weak instance]`
        // (see `WeakReference`).
        let reference = WeakReference(instance)
        start({ value in
            guard let instance = reference.object else { return false }
            instance[keyPath: projected] = Publisher(channel: channel, storing: value)
            return true
        }, anchor.assignmentList)
    }
}

/// The subscriber of `assign(to:)`: it asks for every value and sets each on the
/// property, through `write`, until the upstream completes or the model is gone.
///
/// The model's anchor keeps it (in an ``ObservedAssignments``), so that the subscription
/// lives as long as the model; it leaves that list when the upstream completes, and the
/// anchor cancels it when the model deinitialises. It lets go of the upstream
/// subscription and of `write` at either end.
final class ObservedAssignment<Value>: Subscriber, Cancellable, CombineReflectable {
    typealias Input = Value
    typealias Failure = Never

    let combineIdentifier = CombineIdentifier()
    private let lock = Lock()
    // Guarded by `lock`.
    private var subscription: (any Subscription)?
    /// Sets the property; `false` once the model is gone. `nil` after the end.
    private var write: ((Value) -> Bool)?
    /// The list that keeps this subscriber, to leave at the completion.
    private weak var list: ObservedAssignments?

    init(list: ObservedAssignments?, write: @escaping (Value) -> Bool) {
        self.list = list
        self.write = write
    }

    var description: String { "PublishedSubscriber" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard write != nil, self.subscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        self.subscription = subscription
        lock.unlock()
        subscription.request(.unlimited)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        let write = lock.withLock { self.write }
        // Outside the lock: the set notifies the property's observers.
        if let write, !write(input) { cancel() }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        lock.lock()
        let released = (subscription, write)
        subscription = nil
        write = nil
        let list = self.list
        lock.unlock()
        withExtendedLifetime(released) {}
        list?.remove(self)
    }

    func cancel() {
        lock.lock()
        let subscription = self.subscription
        let write = self.write
        self.subscription = nil
        self.write = nil
        lock.unlock()
        subscription?.cancel()
        withExtendedLifetime(write) {}
    }
}

/// Whether a fused `assign(to:)` has ended: marked by its ``AssignmentEndToken`` when
/// the fused closure that holds the token is let go of.
@usableFromInline
final class AssignmentEnd {
    let happened = Atomic<Bool>(false)

    @usableFromInline
    init() {}
}

/// Held by a fused `assign(to:)`'s closure alone, so that it goes when the closure does
/// (its subscription cancelled, or ended with its source), and marks the ``AssignmentEnd``
/// then. Its deinit only stores a flag: it may run on any thread, under any lock.
@usableFromInline
final class AssignmentEndToken {
    private let end: AssignmentEnd

    @usableFromInline
    init(_ end: AssignmentEnd) { self.end = end }

    deinit { end.happened.store(true, ordering: .releasing) }
}

/// The `assign(to:)` subscriptions of one `@Observed` or `@Published` property, kept for
/// as long as the property lives.
///
/// Two kinds: an ``ObservedAssignment`` subscriber, which leaves at its completion, and
/// the `AnyCancellable` of a fused sink (see `Publisher.startAssignment`), which has no
/// completion of its own to leave at: its ``AssignmentEnd`` tells when it ended, and the
/// list forgets it at the next `add`, or when asked which assignments are running.
/// (Not the cancellable's own state: a `share()`'s fused cancellable stays live when its
/// source completes, and keeps the upstream chain.)
@usableFromInline
final class ObservedAssignments {
    private struct Entry {
        let assignment: any Cancellable & AnyObject
        /// A fused assignment's end; `nil` for a subscriber, which leaves by itself.
        let end: AssignmentEnd?
    }

    private let lock = Lock()
    /// Guarded by `lock`.
    private var entries: [ObjectIdentifier: Entry] = [:]

    @usableFromInline
    init() {}

    /// Keeps a subscriber, which leaves at its completion; forgets the fused assignments
    /// that ended.
    func add(_ assignment: some Cancellable & AnyObject) {
        add(Entry(assignment: assignment, end: nil))
    }

    /// Keeps a fused assignment until `end` tells it ended; forgets those that ended.
    @usableFromInline
    func add(_ assignment: AnyCancellable, endedWith end: AssignmentEnd) {
        add(Entry(assignment: assignment, end: end))
    }

    private func add(_ entry: Entry) {
        let ended = lock.withLock {
            let ended = removeEnded()
            entries[ObjectIdentifier(entry.assignment)] = entry
            return ended
        }
        withExtendedLifetime(ended) {}
    }

    /// Forgets `assignment` (at its completion), releasing it after unlocking.
    func remove(_ assignment: some Cancellable & AnyObject) {
        let removed = lock.withLock { entries.removeValue(forKey: ObjectIdentifier(assignment)) }
        withExtendedLifetime(removed) {}
    }

    /// The assignments still running (for tests: which path each took).
    var running: [any Cancellable & AnyObject] {
        let (running, ended) = lock.withLock {
            let ended = removeEnded()
            return (entries.values.map(\.assignment), ended)
        }
        withExtendedLifetime(ended) {}
        return running
    }

    /// Removes the fused assignments that ended, and returns them, to release after
    /// unlocking. Under `lock`.
    private func removeEnded() -> [Entry] {
        let ended = entries.compactMap { key, entry in
            entry.end?.happened.load(ordering: .acquiring) == true ? key : nil
        }
        return ended.compactMap { entries.removeValue(forKey: $0) }
    }

    /// Cancels and releases every assignment: the property is gone.
    func cancelAll() {
        let all = lock.withLock {
            let all = entries
            entries = [:]
            return all
        }
        for entry in all.values { entry.assignment.cancel() }
    }
}
