@testable import Bindings

/// A publisher driven by hand that records what its subscriber asks of it: requests and
/// cancels. It keeps forwarding after a cancel, like a careless upstream, so that tests can
/// check that operators ignore what arrives late; it drops its subscriber on completion.
/// Not thread-safe: for single-threaded tests.
final class OpsBProbe<Output, Failure: Error>: Publisher {
    private(set) var requests: [Subscribers.Demand] = []
    private(set) var cancelCount = 0
    private(set) var subscribeCount = 0
    private var subscriber: AnySubscriber<Output, Failure>?

    var isSubscribed: Bool { subscriber != nil }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let erased = AnySubscriber(subscriber)
        self.subscriber = erased
        subscribeCount += 1
        erased.receive(subscription: ProbeSubscription(probe: self))
    }

    /// Sends `value` whatever the demand; returns the demand the subscriber returned.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        subscriber?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        let subscriber = self.subscriber
        self.subscriber = nil
        subscriber?.receive(completion: completion)
    }

    /// Stops forwarding, as a well-behaved publisher does once cancelled.
    func detach() { subscriber = nil }

    private final class ProbeSubscription: Subscription {
        weak var probe: OpsBProbe?
        init(probe: OpsBProbe) { self.probe = probe }
        func request(_ demand: Subscribers.Demand) { probe?.requests.append(demand) }
        func cancel() { probe?.cancelCount += 1 }
    }
}
