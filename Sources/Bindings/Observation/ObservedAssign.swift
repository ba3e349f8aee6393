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
    /// model to set: nothing is assigned.
    public func assign(to published: inout Observed<Output>.Publisher) {
        let upstream = self
        published.request = .assign(PendingAssignment { upstream.subscribe($0) })
    }
}

/// An `assign(to:)` waiting for its model: `assign(to:)` leaves it in the projection it is
/// given, and the projection's setter, which runs when `assign(to:)` returns and knows the
/// model, starts it, once.
@usableFromInline
final class PendingAssignment<Value> {
    private let lock = Lock()
    /// Subscribes the upstream to the assignment's subscriber; taken when started.
    private var subscribe: ((ObservedAssignment<Value>) -> Void)?

    init(_ subscribe: @escaping (ObservedAssignment<Value>) -> Void) {
        self.subscribe = subscribe
    }

    /// The subscribing closure, the first time only.
    func take() -> ((ObservedAssignment<Value>) -> Void)? {
        lock.withLock {
            defer { subscribe = nil }
            return subscribe
        }
    }
}

/// What a projection (`$property`) asks the projection's setter to do.
///
/// The setter is where the property's storage key path is: `@Observed` keeps that key
/// path in its inlined accessors (see `Observed.subscript(_enclosingInstance:wrapped:storage:)`),
/// so out-of-line code that must set the property, an `assign(to:)`, sets the projection
/// through its key path with a `.store` request.
@usableFromInline
enum ProjectionRequest<Value> {
    /// Start this `assign(to:)`, given the projection.
    case assign(PendingAssignment<Value>)
    /// Store this value, which an `assign(to:)` received, and notify the observers.
    case store(AssignedValue<Value>)
}

/// A value an `assign(to:)` received, on its way to the projection's setter. A box, so
/// that a projection stays small (and `indirect` crashes this compiler in `sink`).
@usableFromInline
final class AssignedValue<Value> {
    @usableFromInline let value: Value

    init(_ value: Value) { self.value = value }
}

extension Observed {
    /// Starts `assignment` on the property of `instance` whose channel is `channel`, owned
    /// by `anchor`, and whose projection's key path is `projected`: from the projection's
    /// setter, on the model's isolation.
    @usableFromInline
    static func startAssignment<Instance: KeyValueObservable>(
        _ assignment: PendingAssignment<Value>, on instance: Instance, channel: PropertyChannel<Value>,
        anchor: ChannelAnchor?, projected: ReferenceWritableKeyPath<Instance, Publisher>
    ) {
        guard let subscribe = assignment.take() else { return }
        let list = anchor?.assignmentList
        // Weak: the model must not keep itself alive through its own assignment, and a
        // value that arrives while it deinitialises must find it gone.
        let subscriber = ObservedAssignment<Value>(list: list) { [weak instance] value in
            guard let instance else { return false }
            instance[keyPath: projected] = Publisher(channel: channel, storing: value)
            return true
        }
        // Kept before subscribing: an upstream that completes at once leaves the list then.
        list?.add(subscriber)
        subscribe(subscriber)
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

/// The `assign(to:)` subscriptions of one `@Observed` property, kept by its anchor for as
/// long as the model lives.
final class ObservedAssignments {
    private let lock = Lock()
    /// Guarded by `lock`.
    private var entries: [ObjectIdentifier: any Cancellable & AnyObject] = [:]

    func add(_ assignment: some Cancellable & AnyObject) {
        lock.withLock { entries[ObjectIdentifier(assignment)] = assignment }
    }

    /// Forgets `assignment` (at its completion), releasing it after unlocking.
    func remove(_ assignment: some Cancellable & AnyObject) {
        let removed = lock.withLock { entries.removeValue(forKey: ObjectIdentifier(assignment)) }
        withExtendedLifetime(removed) {}
    }

    /// Whether no assignment is running (each leaves at its completion).
    var isEmpty: Bool { lock.withLock { entries.isEmpty } }

    /// Cancels and releases every assignment: the model is gone.
    func cancelAll() {
        let all = lock.withLock {
            let all = entries
            entries = [:]
            return all
        }
        for assignment in all.values { assignment.cancel() }
    }
}
