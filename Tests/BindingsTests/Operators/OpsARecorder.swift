@testable import Bindings

/// The error the operator tests fail their publishers with.
enum OpsATestError: Error, Equatable {
    case boom
}

/// A subscriber for the operator tests that records what it receives and checks the
/// subscriber contract as it goes.
///
/// It requests `demand` when it gets its subscription (nothing for `.none`), returns
/// `onValue(value)` from each value, and can `request(_:)` and `cancel()` by hand. It
/// counts its outstanding demand, so a value beyond it (or any event out of order) is
/// recorded in `violations`.
final class OpsARecorder<Input: Equatable, Failure: Error & Equatable>: Subscriber, @unchecked Sendable {
    // `@unchecked Sendable`: every mutable property is read and written only under `lock`;
    // the closures are never called with it held.

    enum Event: Equatable {
        case value(Input)
        case finished
        case failure(Failure)
    }

    private let lock = Lock()
    private let initialDemand: Subscribers.Demand
    private let onValue: (Input) -> Subscribers.Demand
    private var subscription: (any Subscription)?
    private var subscribed = false
    private var completed = false
    private var outstanding = Subscribers.Demand.none
    private var recorded: [Event] = []
    private var problems: [String] = []

    init(demand: Subscribers.Demand = .unlimited, onValue: @escaping (Input) -> Subscribers.Demand = { _ in .none }) {
        initialDemand = demand
        self.onValue = onValue
    }

    /// Everything received so far, in order.
    var events: [Event] { lock.withLock { recorded } }

    /// The values received so far, in order.
    var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    /// Breaches of the subscriber contract seen so far; empty when all is well.
    var violations: [String] { lock.withLock { problems } }

    func receive(subscription: any Subscription) {
        lock.lock()
        if subscribed { problems.append("second subscription") }
        subscribed = true
        self.subscription = subscription
        outstanding += initialDemand
        lock.unlock()
        if initialDemand > .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        if !subscribed { problems.append("value \(input) before the subscription") }
        if completed { problems.append("value \(input) after completion") }
        if outstanding == .none { problems.append("value \(input) without demand") }
        outstanding -= 1
        recorded.append(.value(input))
        lock.unlock()
        let more = onValue(input)
        lock.withLock { outstanding += more }
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        if !subscribed { problems.append("completion before the subscription") }
        if completed { problems.append("second completion") }
        completed = true
        subscription = nil
        switch completion {
        case .finished: recorded.append(.finished)
        case .failure(let error): recorded.append(.failure(error))
        }
        lock.unlock()
    }

    /// Asks the subscription for `demand` more values.
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        outstanding += demand
        let subscription = self.subscription
        lock.unlock()
        subscription?.request(demand)
    }

    /// Cancels the subscription and lets it go.
    func cancel() {
        lock.lock()
        let subscription = self.subscription
        self.subscription = nil
        lock.unlock()
        subscription?.cancel()
    }
}

/// A thread-safe list, for recording what `handleEvents` closures see.
final class OpsALog<Item: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable`: `storage` is read and written only under `lock`.
    private let lock = Lock()
    private var storage: [Item] = []

    func append(_ item: Item) { lock.withLock { storage.append(item) } }

    var items: [Item] { lock.withLock { storage } }

    var count: Int { lock.withLock { storage.count } }
}
