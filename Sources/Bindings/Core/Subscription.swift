/// A protocol representing the connection of a subscriber to a publisher, as in Combine.
///
/// Subscriptions are class-bound and have identity. Cancelling a subscription must be
/// thread-safe and idempotent; after `cancel()` returns nothing more is delivered.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    ///
    /// `demand` must be greater than zero: requesting `.none` is a programmer error and
    /// stops the program with a message saying so.
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for the subscription placeholders, as in Combine.
public enum Subscriptions {
    /// A subscription that does nothing: for publishers that complete at once.
    public static var empty: any Subscription { EmptySubscription.shared }
}

private final class EmptySubscription: Subscription, CombineReflectable, Sendable {
    static let shared = EmptySubscription()
    var description: String { "Empty" }
    func request(_ demand: Subscribers.Demand) { demand.assertNonZero() }
    func cancel() {}
}
