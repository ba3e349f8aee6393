import Bindings
import Foundation

/// A subscription handed to a subscriber by hand, that records what the subscriber asks of
/// it (requests and cancels, in ``log``) and does nothing else.
///
/// `@unchecked Sendable`: `recorded` is only touched with `lock` held.
package final class TestSubscription: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [UpstreamEvent] = []

    package init() {}

    /// Everything the subscriber asked, in order.
    package var log: [UpstreamEvent] { lock.withLock { recorded } }

    /// The demands requested, in order.
    package var requests: [Subscribers.Demand] { log.requests }

    /// How many times the subscription was cancelled.
    package var cancelCount: Int { log.cancelCount }

    package func request(_ demand: Subscribers.Demand) { lock.withLock { recorded.append(.request(demand)) } }

    package func cancel() { lock.withLock { recorded.append(.cancel) } }
}
