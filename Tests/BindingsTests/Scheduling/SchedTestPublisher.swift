@testable import Bindings

/// What a ``SchedTestPublisher`` was asked by its subscriber.
enum SchedUpstreamEvent: Equatable {
    case subscribed
    case request(Subscribers.Demand)
    case cancel
}

/// A publisher driven by the test. It takes one subscriber, records what that
/// subscriber asks of it (``log``), and sends exactly what the test tells it to,
/// synchronously and regardless of demand, so that tests can see whether an operator
/// honours demand and cancellation itself.
///
/// With `subscribesAtOnce: false` the subscription is only handed over when the test
/// calls ``attach()``.
///
/// `@unchecked Sendable`: `subscriber`, `recorded` and `waiters` are only touched with
/// `lock` held; calls to the subscriber and continuation resumptions happen after
/// unlocking.
final class SchedTestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let lock = Lock()
    private var subscriber: AnySubscriber<Output, Failure>?
    private var recorded: [SchedUpstreamEvent] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private let subscribesAtOnce: Bool

    init(subscribesAtOnce: Bool = true) {
        self.subscribesAtOnce = subscribesAtOnce
    }

    /// Everything the subscriber asked, in order.
    var log: [SchedUpstreamEvent] { lock.withLock { recorded } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.withLock { self.subscriber = AnySubscriber(subscriber) }
        if subscribesAtOnce { attach() }
    }

    /// Hands the subscription to the subscriber.
    func attach() {
        guard let subscriber = lock.withLock({ self.subscriber }) else { return }
        record(.subscribed)
        subscriber.receive(subscription: Conduit(publisher: self))
    }

    /// Sends a value now and returns the demand the subscriber answered with.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        lock.withLock { subscriber }?.receive(value) ?? .none
    }

    /// Sends a completion now.
    func send(completion: Subscribers.Completion<Failure>) {
        lock.withLock { subscriber }?.receive(completion: completion)
    }

    /// Returns once the log holds at least `count` entries.
    func waitForLog(count: Int) async {
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

    fileprivate func record(_ event: SchedUpstreamEvent) {
        lock.lock()
        recorded.append(event)
        let count = recorded.count
        let ready = waiters.filter { $0.count <= count }
        waiters.removeAll { $0.count <= count }
        lock.unlock()
        for waiter in ready { waiter.continuation.resume() }
    }

    private final class Conduit: Subscription {
        weak var publisher: SchedTestPublisher?

        init(publisher: SchedTestPublisher) { self.publisher = publisher }

        func request(_ demand: Subscribers.Demand) { publisher?.record(.request(demand)) }

        func cancel() { publisher?.record(.cancel) }
    }
}
