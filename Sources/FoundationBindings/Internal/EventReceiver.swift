/// The input side of an ``EventSubscription``, without its subscriber's type.
///
/// Sources hold their subscription through this protocol: a `@Sendable` callback (a
/// notification block, a termination handler) that captured the generic subscription
/// itself would capture its subscriber's metatype, which Swift 6 does not let cross
/// threads. Every publisher of this module fails with `Never`, so finishing takes no
/// error.
protocol EventReceiver<Output>: AnyObject, Sendable {
    associatedtype Output

    /// Offers a value (see ``EventSubscription/send(_:)``).
    func send(_ value: Output)

    /// Ends the stream after the waiting values (see ``EventSubscription/finish(_:)``).
    func finish()

    /// Whether the subscriber has demand that no waiting value will use.
    var hasUnmetDemand: Bool { get }
}

extension EventSubscription: EventReceiver where Downstream.Failure == Never {
    func finish() { finish(.finished) }
}
