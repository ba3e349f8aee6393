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

    /// Sends `input` to the subscribers that have demand (ignored after completion).
    @inlinable
    public func send(_ input: Output) { core.send(input) }

    /// Sends the completion to the subscribers, once; later sends are ignored.
    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    /// Keeps `subscription` (cancelled when the subject goes away) and requests
    /// unlimited values from it.
    public func send(subscription: any Subscription) { core.send(subscription: subscription) }

    /// Attaches `subscriber`: it receives what is sent from now on; after completion, only
    /// the completion.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }
}

// Checked: `core` is a `let` of a `Sendable` type (`SubjectCore` documents its state);
// values cross threads only when `Output` is itself `Sendable`.
extension PassthroughSubject: Sendable where Output: Sendable {}
