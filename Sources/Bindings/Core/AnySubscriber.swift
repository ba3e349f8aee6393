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
    /// A textual description of the wrapped subscriber.
    public let description: String

    /// Wraps `subscriber`.
    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        if let erased = subscriber as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        combineIdentifier = subscriber.combineIdentifier
        description = String(describing: subscriber)
        receiveSubscriptionBody = subscriber.receive(subscription:)
        receiveValueBody = subscriber.receive(_:)
        receiveCompletionBody = subscriber.receive(completion:)
    }

    /// Creates a subscriber from closures; each defaults to doing nothing, and
    /// `receiveValue` defaults to asking for no more values.
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        combineIdentifier = CombineIdentifier()
        description = "Anonymous AnySubscriber"
        receiveSubscriptionBody = receiveSubscription ?? { _ in }
        receiveValueBody = receiveValue ?? { _ in .none }
        receiveCompletionBody = receiveCompletion ?? { _ in }
    }

    @inlinable
    public func receive(subscription: any Subscription) { receiveSubscriptionBody(subscription) }

    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand { receiveValueBody(value) }

    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody(completion) }
}
