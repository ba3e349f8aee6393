/// A subject that broadcasts elements to downstream subscribers, as in Combine.
///
/// It has no current value: subscribers receive only what is sent after they subscribe.
/// Sends are thread-safe, and ordered (see ``Subject``).
///
/// ```swift
/// let clicks = PassthroughSubject<Int, Never>()
/// let c = clicks.sink { print($0) }
/// clicks.send(1)                      // prints 1
/// clicks.send(completion: .finished)
/// ```
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    @usableFromInline let core = SubjectCore<Output, Failure>(current: nil)

    /// Creates a subject.
    public init() {}

    @inlinable
    public func send(_ input: Output) { core.send(input) }

    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    public func send(subscription: any Subscription) { core.send(subscription: subscription) }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }
}

// `@unchecked Sendable`: all mutable state is in `core`, guarded by its channel's lock;
// values cross threads only when `Output` is itself `Sendable`.
extension PassthroughSubject: @unchecked Sendable where Output: Sendable {}
