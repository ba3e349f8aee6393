import Bindings

/// What a subscriber did to its upstream: a ``TestPublisher`` or a ``TestSubscription``.
package enum UpstreamEvent: Equatable, Sendable {
    case subscribed
    case request(Subscribers.Demand)
    case cancel
}

extension [UpstreamEvent] {
    /// The demands requested, in order.
    package var requests: [Subscribers.Demand] {
        compactMap { event in
            if case .request(let demand) = event { return demand }
            return nil
        }
    }

    /// How many times the subscription was cancelled.
    package var cancelCount: Int { filter { $0 == .cancel }.count }
}
