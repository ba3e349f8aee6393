import Bindings
import Foundation

/// The one hand-driven upstream of the test suites: it records what its subscriber asks of
/// it (``log``), and sends exactly what the test tells it to, synchronously and whatever
/// the demand, so that tests can see whether an operator honours demand and cancellation
/// itself. It keeps forwarding after a cancel, like a careless upstream.
///
/// - `subscribesAtOnce: false`: the subscription is only handed over when the test calls
///   ``attach()``.
/// - `releasesSubscriberOnCompletion: true`: the subscriber is let go when a completion is
///   sent (so that leak tests see the operator alone); otherwise it keeps receiving what
///   the test sends after the completion (so that tests see the operator ignore it).
///
/// `@unchecked Sendable`: `subscriber`, `recorded` and `waiters` are only touched with
/// `lock` held; the subscriber is called and continuations are resumed after unlocking.
package final class TestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let lock = NSLock()
    private let subscribesAtOnce: Bool
    private let releasesSubscriberOnCompletion: Bool
    private var subscriber: AnySubscriber<Output, Failure>?
    private var recorded: [UpstreamEvent] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    package init(subscribesAtOnce: Bool = true, releasesSubscriberOnCompletion: Bool = false) {
        self.subscribesAtOnce = subscribesAtOnce
        self.releasesSubscriberOnCompletion = releasesSubscriberOnCompletion
    }

    /// Everything the subscriber did, in order.
    package var log: [UpstreamEvent] { lock.withLock { recorded } }

    /// The demands requested, in order.
    package var requests: [Subscribers.Demand] { log.requests }

    /// How many times the subscription was cancelled.
    package var cancelCount: Int { log.cancelCount }

    /// Whether a subscriber is attached (and not let go after a completion).
    package var isSubscribed: Bool { lock.withLock { subscriber != nil } }

    package func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.withLock { self.subscriber = AnySubscriber(subscriber) }
        if subscribesAtOnce { attach() }
    }

    /// Hands the subscription to the subscriber.
    package func attach() {
        guard let subscriber = lock.withLock({ self.subscriber }) else { return }
        record(.subscribed)
        subscriber.receive(subscription: Conduit(publisher: self))
    }

    /// Sends a value now, whatever the demand; returns the demand the subscriber answered.
    @discardableResult
    package func send(_ value: Output) -> Subscribers.Demand {
        lock.withLock { subscriber }?.receive(value) ?? .none
    }

    /// Sends a completion now.
    package func send(completion: Subscribers.Completion<Failure>) {
        let subscriber = lock.withLock {
            let subscriber = self.subscriber
            if releasesSubscriberOnCompletion { self.subscriber = nil }
            return subscriber
        }
        subscriber?.receive(completion: completion)
    }

    /// Returns once the log holds at least `count` entries.
    package func waitForLog(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if recorded.count >= count {
                lock.unlock()
                continuation.resume()
                return
            }
            waiters.append((count, continuation))
            lock.unlock()
        }
    }

    fileprivate func record(_ event: UpstreamEvent) {
        lock.lock()
        recorded.append(event)
        let count = recorded.count
        let ready = waiters.filter { $0.count <= count }
        waiters.removeAll { $0.count <= count }
        lock.unlock()
        for waiter in ready { waiter.continuation.resume() }
    }

    /// The subscription: it records what it is asked; it holds its publisher weakly.
    private final class Conduit: Subscription {
        weak var publisher: TestPublisher?

        init(publisher: TestPublisher) { self.publisher = publisher }

        func request(_ demand: Subscribers.Demand) { publisher?.record(.request(demand)) }

        func cancel() { publisher?.record(.cancel) }
    }
}
