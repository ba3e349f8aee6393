/// A protocol that declares a type that can receive input from a publisher, as in Combine.
///
/// A subscriber receives exactly one subscription, then values as long as it has demand,
/// then at most one completion.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input
    /// The kind of errors this subscriber might receive.
    associatedtype Failure: Error

    /// Tells the subscriber that it has subscribed and may request items.
    func receive(subscription: any Subscription)
    /// Tells the subscriber that the publisher has produced an element; returns how many
    /// more elements the subscriber wants, added to its outstanding demand.
    func receive(_ input: Input) -> Subscribers.Demand
    /// Tells the subscriber that the publisher has completed, normally or with an error.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Tells the subscriber that a publisher of `Void` has produced an element.
    @inlinable
    public func receive() -> Subscribers.Demand { receive(()) }
}

/// A namespace for types that serve as subscribers, as in Combine.
public enum Subscribers {}
