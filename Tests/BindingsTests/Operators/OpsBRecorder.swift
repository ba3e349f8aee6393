import Dispatch
import Synchronization
@testable import Bindings

/// The failure the opsB operator tests send.
struct OpsBError: Error, Equatable, CustomStringConvertible {
    let code: Int
    init(_ code: Int) { self.code = code }
    var description: String { "OpsBError(\(code))" }
}

/// One recorded event.
enum OpsBEvent<Value: Equatable>: Equatable, CustomStringConvertible {
    case value(Value)
    case finished
    case failure(OpsBError)

    var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .finished: "finished"
        case .failure(let error): "failure(\(error.code))"
        }
    }
}

/// A subscriber that records what it receives, turning each input into an `Equatable`
/// value with `record` (tuples are not `Equatable`), and that requests demand by hand.
///
/// It keeps its subscription strongly for ever, as a careless subscriber would, so that
/// the tests prove the operators break the cycle themselves on completion and cancel.
/// Not thread-safe: for single-threaded tests.
final class OpsBRecorder<Input, Failure: Error, Value: Equatable>: Subscriber {
    private(set) var events: [OpsBEvent<Value>] = []
    private(set) var subscription: (any Subscription)?
    private let initialDemand: Subscribers.Demand
    /// What `receive(_:)` returns.
    var demandPerValue: Subscribers.Demand
    /// Runs after each value is recorded (to re-enter the operator).
    var onValue: ((Input) -> Void)?
    private let record: (Input) -> Value

    /// `initial` is requested on subscription unless it is `.none`.
    init(initial: Subscribers.Demand = .unlimited, perValue: Subscribers.Demand = .none,
         record: @escaping (Input) -> Value) {
        initialDemand = initial
        demandPerValue = perValue
        self.record = record
    }

    convenience init(initial: Subscribers.Demand = .unlimited, perValue: Subscribers.Demand = .none)
    where Input == Value {
        self.init(initial: initial, perValue: perValue) { $0 }
    }

    var values: [Value] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if initialDemand > .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        events.append(.value(record(input)))
        onValue?(input)
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: events.append(.finished)
        case .failure(let error): events.append(.failure(error as? OpsBError ?? OpsBError(-1)))
        }
    }

    func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }

    func cancel() { subscription?.cancel() }
}

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

/// Counts calls that overlap, to prove that a subscriber is never called concurrently
/// without relying on the thread sanitizer alone.
final class OpsBOverlapDetector: Sendable {
    private let inside = Atomic<Int>(0)
    private let overlapCount = Atomic<Int>(0)

    var overlaps: Int { overlapCount.load(ordering: .relaxed) }

    /// Runs `body` as one call to watch, kept open for about `spins` more atomic loads so
    /// that overlapping calls are caught even on a busy machine.
    func watch(spins limit: Int = 200, _ body: () -> Void) {
        if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
            overlapCount.add(1, ordering: .relaxed)
        }
        body()
        var spins = 0
        while spins < limit { spins = inside.load(ordering: .relaxed) > 1 ? limit : spins + 1 }
        inside.subtract(1, ordering: .acquiringAndReleasing)
    }
}

/// Runs `bodies` on separate threads, released together once all have started (so that
/// they really overlap), and returns when all have finished.
func opsBRunConcurrently(_ bodies: [@Sendable () -> Void]) {
    final class StartLine: Sendable {
        let ready = Atomic<Int>(0)
    }
    let startLine = StartLine()
    let count = bodies.count
    let group = DispatchGroup()
    for (index, body) in bodies.enumerated() {
        // A serial queue of its own per body: serial queues target the overcommitting
        // root queue, which starts a thread for each even while the others spin.
        DispatchQueue(label: "opsB.concurrently.\(index)").async(group: group) {
            startLine.ready.add(1, ordering: .acquiringAndReleasing)
            while startLine.ready.load(ordering: .acquiring) < count {}
            body()
        }
    }
    group.wait()
}

/// A counter that threads share.
final class OpsBCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .acquiring) }
    func increment() { count.add(1, ordering: .acquiringAndReleasing) }
}
