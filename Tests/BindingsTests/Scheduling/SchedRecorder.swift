@testable import Bindings

/// What a ``SchedRecorder`` saw.
enum SchedEvent<Value, Failure: Error> {
    case value(Value)
    case finished
    case failure(Failure)
}

extension SchedEvent: Equatable where Value: Equatable, Failure: Equatable {}

/// The error the scheduling tests send.
enum SchedTestError: Error, Equatable {
    case boom
}

/// A subscriber that records every event, for exact assertions. It requests
/// `initialDemand` on subscription (unless `.none`) and returns `demandPerValue` from
/// each value; `onEvent` runs after each event is recorded (on the delivering thread).
///
/// `@unchecked Sendable`: `events` and `subscription` are only touched with `lock` held;
/// the rest is immutable. Tests read `events` after the deliveries they wait for.
final class SchedRecorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private let lock = Lock()
    private var recorded: [SchedEvent<Input, Failure>] = []
    private var subscription: (any Subscription)?
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand
    private let onEvent: ((SchedEvent<Input, Failure>) -> Void)?

    init(
        initialDemand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none,
        onEvent: ((SchedEvent<Input, Failure>) -> Void)? = nil
    ) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
        self.onEvent = onEvent
    }

    var events: [SchedEvent<Input, Failure>] { lock.withLock { recorded } }

    func receive(subscription: any Subscription) {
        lock.withLock { self.subscription = subscription }
        if initialDemand > .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        record(.value(input))
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: record(.finished)
        case .failure(let error): record(.failure(error))
        }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { subscription }?.request(demand)
    }

    func cancel() {
        lock.withLock { subscription }?.cancel()
    }

    private func record(_ event: SchedEvent<Input, Failure>) {
        lock.withLock { recorded.append(event) }
        onEvent?(event)
    }
}
