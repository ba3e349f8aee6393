/// A type-erasing subscriber, as in Combine.
///
/// Wraps another subscriber, or three closures, so that code can hold subscribers of one
/// concrete type.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline let receiveSubscriptionBody: (any Subscription) -> Void
    @usableFromInline let receiveValueBody: (Input) -> Subscribers.Demand
    @usableFromInline let receiveCompletionBody: (Subscribers.Completion<Failure>) -> Void

    /// The identifier of the wrapped subscriber.
    public let combineIdentifier: CombineIdentifier
    /// What `description` describes: the wrapped subscriber or subject, or a name.
    /// Kept as is so that wrapping costs no string formatting.
    private let described: Any

    /// A textual description of the wrapped subscriber.
    public var description: String { String(describing: described) }

    /// Wraps `subscriber`.
    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        if let erased = subscriber as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        combineIdentifier = subscriber.combineIdentifier
        described = subscriber
        receiveSubscriptionBody = subscriber.receive(subscription:)
        receiveValueBody = subscriber.receive(_:)
        receiveCompletionBody = subscriber.receive(completion:)
    }

    /// Wraps a subject: the subscriber forwards the subscription, every value and the
    /// completion to it, as in Combine.
    ///
    /// ```swift
    /// let relay = PassthroughSubject<Int, Never>()
    /// Just(1).subscribe(AnySubscriber(relay))
    /// ```
    public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
        combineIdentifier = CombineIdentifier(subject)
        described = subject
        receiveSubscriptionBody = subject.send(subscription:)
        receiveValueBody = { value in
            subject.send(value)
            return .none
        }
        receiveCompletionBody = subject.send(completion:)
    }

    /// Creates a subscriber from closures; each defaults to doing nothing, and
    /// `receiveValue` defaults to asking for no more values.
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        combineIdentifier = CombineIdentifier()
        described = "Anonymous AnySubscriber"
        receiveSubscriptionBody = receiveSubscription ?? { _ in }
        receiveValueBody = receiveValue ?? { _ in .none }
        receiveCompletionBody = receiveCompletion ?? { _ in }
    }

    /// Forwards the subscription.
    @inlinable
    public func receive(subscription: any Subscription) { receiveSubscriptionBody(subscription) }

    /// Forwards a value; returns the wrapped subscriber's extra demand.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand { receiveValueBody(value) }

    /// Forwards the completion.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody(completion) }
}

extension AnySubscriber: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The wrapped subscriber's mirror, or one of it with no children when it has no
    /// mirror of its own; for a subscriber made of closures, the mirror of the string
    /// "Anonymous AnySubscriber". As in Combine.
    public var customMirror: Mirror {
        if let reflectable = described as? any CustomReflectable { return reflectable.customMirror }
        // Only the closure-based subscriber is described by a string.
        if let name = described as? String { return Mirror(reflecting: name) }
        return Self.childlessMirror(of: described)
    }

    /// The wrapped subscriber's playground description, or else its description, as in
    /// Combine.
    public var playgroundDescription: Any {
        if let displayable = described as? any CustomPlaygroundDisplayConvertible {
            return displayable.playgroundDescription
        }
        return description
    }

    /// A mirror whose subject type is the wrapped subscriber's own (the existential is
    /// opened here), not `Any`.
    private static func childlessMirror<Subject>(of subject: Subject) -> Mirror {
        Mirror(subject, children: EmptyCollection<Mirror.Child>())
    }
}
