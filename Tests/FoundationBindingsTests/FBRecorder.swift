import Bindings
import Dispatch
import Foundation

/// A subscriber for the Foundation bindings' tests: it records every event, with the
/// thread it arrived on, and lets a test wait (with a timeout, never a fixed sleep) until
/// the events satisfy a condition.
///
/// It requests `initialDemand` when it gets its subscription (nothing for `.none`) and
/// returns `demandPerValue` from each value; ask for more with ``request(_:)``.
/// `onValue` runs after a value is recorded (to re-enter the publisher).
///
/// `@unchecked Sendable`: `recorded`, `threads` and `storedSubscription` are only touched
/// with `lock` held; `onValue` is set before subscribing and only read afterwards.
final class FBRecorder<Input: Equatable>: Subscriber, @unchecked Sendable {
    enum Event: Equatable {
        case value(Input)
        case finished
    }

    private let lock = NSLock()
    private let arrived = DispatchSemaphore(value: 0)
    private var recorded: [Event] = []
    private var contexts: [FBContext] = []
    private var storedSubscription: (any Subscription)?
    private var subscriptionCount = 0
    let initialDemand: Subscribers.Demand
    let demandPerValue: Subscribers.Demand
    var onValue: ((Input) -> Void)?

    init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    var events: [Event] { lock.withLock { recorded } }

    var values: [Input] {
        events.compactMap { event in
            if case .value(let value) = event { return value }
            return nil
        }
    }

    /// Where each event arrived.
    var deliveryContexts: [FBContext] { lock.withLock { contexts } }

    var subscriptions: Int { lock.withLock { subscriptionCount } }

    var subscription: (any Subscription)? { lock.withLock { storedSubscription } }

    func receive(subscription: any Subscription) {
        lock.withLock {
            storedSubscription = subscription
            subscriptionCount += 1
        }
        if initialDemand != .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        record(.value(input))
        onValue?(input)
        return demandPerValue
    }

    /// Records the completion and forgets the subscription.
    func receive(completion: Subscribers.Completion<Never>) {
        lock.withLock { storedSubscription = nil }
        record(.finished)
    }

    func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    /// Cancels the stored subscription and forgets it (so that a weak reference tells
    /// when the publisher released it).
    func cancel() {
        let subscription = lock.withLock { () -> (any Subscription)? in
            defer { storedSubscription = nil }
            return storedSubscription
        }
        subscription?.cancel()
    }

    /// Waits until `condition` holds for the recorded events, or until `timeout`
    /// seconds have passed; returns whether it holds.
    @discardableResult
    func wait(timeout: Double = 10, until condition: ([Event]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while !condition(events) {
            if arrived.wait(timeout: deadline) == .timedOut { return condition(events) }
        }
        return true
    }

    /// Waits until at least `count` events are recorded.
    @discardableResult
    func wait(forCount count: Int, timeout: Double = 10) -> Bool {
        wait(timeout: timeout) { $0.count >= count }
    }

    private func record(_ event: Event) {
        let context = FBContext.current
        lock.withLock {
            recorded.append(event)
            contexts.append(context)
        }
        arrived.signal()
    }
}

/// Where a callback ran: its thread, and the name of the test queue it ran on, if any
/// (a queue made by ``fbQueue(_:)``).
struct FBContext: Equatable {
    static let queueKey = DispatchSpecificKey<String>()

    let thread: pthread_t
    let queue: String?

    static var current: FBContext {
        FBContext(thread: pthread_self(), queue: DispatchQueue.getSpecific(key: queueKey))
    }
}

/// A serial queue that ``FBContext`` recognises by `name`.
func fbQueue(_ name: String) -> DispatchQueue {
    let queue = DispatchQueue(label: name)
    queue.setSpecific(key: FBContext.queueKey, value: name)
    return queue
}

/// A class whose deallocation a weak reference observes.
final class FBToken: @unchecked Sendable {
    // `@unchecked Sendable`: no stored state.
    init() {}
}

/// Polls `condition` every millisecond until it holds or `timeout` seconds pass: for
/// conditions that no callback reports (a subscription released by Dispatch's own
/// threads).
func fbEventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + timeout
    while !condition() {
        if DispatchTime.now() > deadline { return false }
        usleep(1000)
    }
    return true
}
