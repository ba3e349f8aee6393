/// A subject that wraps a single value and publishes a new element whenever the value
/// changes, as in Combine.
///
/// A subscriber first receives the current value, then every later one. Setting
/// ``value`` sends. Reads and sends are thread-safe, and ordered (see ``Subject``).
///
/// ```swift
/// let temperature = CurrentValueSubject<Int, Never>(20)
/// let c = temperature.sink { print($0) }   // prints 20
/// temperature.value = 21                  // prints 21
/// ```
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    @usableFromInline let core: SubjectCore<Output, Failure>

    /// Creates a subject with an initial value.
    public init(_ value: Output) {
        core = SubjectCore(current: value)
    }

    /// The value wrapped by this subject, published as a new element whenever it changes.
    /// After completion, setting it stores the value and sends nothing, as in Combine
    /// (``send(_:)`` then ignores the value).
    public var value: Output {
        get {
            core.channel.withLock { core.current! }
        }
        set { core.send(newValue, storingAfterCompletion: true) }
    }

    /// Sets the value and sends it to the subscribers (ignored after completion).
    @inlinable
    public func send(_ input: Output) { core.send(input) }

    /// Sends the completion to the subscribers, once; later sends are ignored.
    public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    /// Keeps `subscription` (cancelled when the subject goes away) and requests
    /// unlimited values from it.
    public func send(subscription: any Subscription) { core.send(subscription: subscription) }

    /// Attaches `subscriber`: it receives the current value once it requests, then later
    /// values; after completion, only the completion.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }
}

// Checked: `core` is a `let` of a `Sendable` type (`SubjectCore` documents its state,
// the value included); values cross threads only when `Output` is itself `Sendable`.
extension CurrentValueSubject: Sendable where Output: Sendable {}
