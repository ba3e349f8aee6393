import Bindings
import Dispatch
import Foundation

/// When a ``TestRecorder`` lets go of its subscription.
///
/// Keeping it lets a test call `request(_:)` or `cancel()` after a completion, or prove
/// that an operator breaks the subscriber–subscription cycle itself (a careless
/// subscriber); releasing it lets a weak reference tell when the publisher released it.
package struct SubscriptionRelease: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// Released when the completion arrives (as `Sink` does).
    package static let onCompletion = SubscriptionRelease(rawValue: 1 << 0)
    /// Released by the recorder's `cancel()`.
    package static let onCancel = SubscriptionRelease(rawValue: 1 << 1)
}

/// The one subscriber of the test suites: it records every event it receives, in order
/// (with where each arrived), checks the subscriber contract as it goes, and lets a test
/// drive demand and cancellation by hand.
///
/// - Demand: it requests `initialDemand` when it gets its subscription (nothing for
///   `.none`) and returns ``demandPerValue`` from each value; ``request(_:)`` asks for
///   more. It counts its outstanding demand, so that a value beyond it (or any event out
///   of order) is listed in ``violations``.
/// - Hooks: ``onSubscription``, ``onValue``, ``onCompletion`` and ``onEvent`` run on the
///   delivering thread after the event is recorded, without the lock held (to re-enter
///   the publisher).
/// - Waiting: ``wait(timeout:until:)`` returns once the events satisfy a condition (a
///   timeout, never a fixed sleep), for publishers that deliver on other threads.
/// - `recordsSubscription`: the subscription's arrival is recorded too, as
///   `.subscription`. `releasesSubscription`: see ``SubscriptionRelease``.
///
/// `@unchecked Sendable`: every stored `var` is only touched with `lock` held; the
/// subscription and the hooks are called after unlocking.
package final class TestRecorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    package typealias Event = RecordedEvent<Input, Failure>

    private let lock = NSLock()
    private let arrived = DispatchSemaphore(value: 0)
    private let initialDemand: Subscribers.Demand
    private let recordsSubscription: Bool
    private let release: SubscriptionRelease
    private var recorded: [Event] = []
    private var contexts: [DeliveryContext] = []
    private var storedSubscription: (any Subscription)?
    private weak var lastSubscriptionObject: AnyObject?
    private var subscriptionsReceived = 0
    private var completed = false
    private var outstanding = Subscribers.Demand.none
    private var problems: [String] = []
    private var perValue: Subscribers.Demand
    private var subscriptionHook: ((any Subscription) -> Void)?
    private var valueHook: ((Input) -> Void)?
    private var completionHook: ((Subscribers.Completion<Failure>) -> Void)?
    private var eventHook: ((Event) -> Void)?

    package init(
        initialDemand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none,
        recordsSubscription: Bool = false,
        releasesSubscription: SubscriptionRelease = .onCancel,
        onEvent: ((Event) -> Void)? = nil
    ) {
        self.initialDemand = initialDemand
        perValue = demandPerValue
        self.recordsSubscription = recordsSubscription
        release = releasesSubscription
        eventHook = onEvent
    }

    // MARK: What was received

    /// Everything received so far, in order.
    package var events: [Event] { lock.withLock { recorded } }

    /// The values received so far, in order.
    package var values: [Input] {
        events.compactMap { event in
            if case .value(let value) = event { return value }
            return nil
        }
    }

    /// The events with each value turned into something comparable (tuples are not
    /// `Equatable`).
    package func events<Value>(_ transform: (Input) -> Value) -> [RecordedEvent<Value, Failure>] {
        events.map { $0.map(transform) }
    }

    /// The values, each turned into something comparable.
    package func values<Value>(_ transform: (Input) -> Value) -> [Value] {
        values.map(transform)
    }

    /// Where each event of ``events`` arrived.
    package var deliveryContexts: [DeliveryContext] { lock.withLock { contexts } }

    /// How many subscriptions arrived.
    package var subscriptionCount: Int { lock.withLock { subscriptionsReceived } }

    /// The subscription, until released (see ``SubscriptionRelease``).
    package var subscription: (any Subscription)? { lock.withLock { storedSubscription } }

    /// The last subscription (a class instance), held weakly: `nil` once nothing holds it
    /// any more (the recorder itself included), to see that the publisher released it.
    package var weakSubscription: AnyObject? { lock.withLock { lastSubscriptionObject } }

    /// Breaches of the subscriber contract seen so far; empty when all is well.
    package var violations: [String] { lock.withLock { problems } }

    // MARK: Settings and hooks

    /// What `receive(_:)` returns, read after ``onValue`` ran.
    package var demandPerValue: Subscribers.Demand {
        get { lock.withLock { perValue } }
        set { lock.withLock { perValue = newValue } }
    }

    /// Runs after the subscription is recorded, before the initial request.
    package var onSubscription: ((any Subscription) -> Void)? {
        get { lock.withLock { subscriptionHook } }
        set { lock.withLock { subscriptionHook = newValue } }
    }

    /// Runs after each value is recorded.
    package var onValue: ((Input) -> Void)? {
        get { lock.withLock { valueHook } }
        set { lock.withLock { valueHook = newValue } }
    }

    /// Runs after the completion is recorded.
    package var onCompletion: ((Subscribers.Completion<Failure>) -> Void)? {
        get { lock.withLock { completionHook } }
        set { lock.withLock { completionHook = newValue } }
    }

    /// Runs after each recorded event, before the hook for its kind.
    package var onEvent: ((Event) -> Void)? {
        get { lock.withLock { eventHook } }
        set { lock.withLock { eventHook = newValue } }
    }

    // MARK: Subscriber

    package func receive(subscription: any Subscription) {
        let context = DeliveryContext.current
        let hooks = lock.withLock { () -> (((Event) -> Void)?, ((any Subscription) -> Void)?) in
            if subscriptionsReceived > 0 { problems.append("second subscription") }
            subscriptionsReceived += 1
            storedSubscription = subscription
            lastSubscriptionObject = subscription as? any Subscription & AnyObject
            outstanding += initialDemand
            if recordsSubscription {
                recorded.append(.subscription)
                contexts.append(context)
            }
            return (recordsSubscription ? eventHook : nil, subscriptionHook)
        }
        if recordsSubscription { arrived.signal() }
        hooks.0?(.subscription)
        hooks.1?(subscription)
        if initialDemand != .none { subscription.request(initialDemand) }
    }

    package func receive(_ input: Input) -> Subscribers.Demand {
        let context = DeliveryContext.current
        let hooks = lock.withLock { () -> (((Event) -> Void)?, ((Input) -> Void)?) in
            if subscriptionsReceived == 0 { problems.append("value \(input) before the subscription") }
            if completed { problems.append("value \(input) after completion") }
            if outstanding == .none { problems.append("value \(input) without demand") }
            outstanding -= 1
            recorded.append(.value(input))
            contexts.append(context)
            return (eventHook, valueHook)
        }
        arrived.signal()
        hooks.0?(.value(input))
        hooks.1?(input)
        return lock.withLock {
            outstanding += perValue
            return perValue
        }
    }

    package func receive(completion: Subscribers.Completion<Failure>) {
        let context = DeliveryContext.current
        let event = Event.completion(completion)
        let (released, hooks) = lock.withLock {
            () -> ((any Subscription)?, (((Event) -> Void)?, ((Subscribers.Completion<Failure>) -> Void)?)) in
            if subscriptionsReceived == 0 { problems.append("completion before the subscription") }
            if completed { problems.append("second completion") }
            completed = true
            recorded.append(event)
            contexts.append(context)
            return (takeSubscription(if: .onCompletion), (eventHook, completionHook))
        }
        withExtendedLifetime(released) {}   // released outside the lock
        arrived.signal()
        hooks.0?(event)
        hooks.1?(completion)
    }

    // MARK: Driving the subscription

    /// Asks the subscription for `demand` more values.
    package func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock {
            outstanding += demand
            return storedSubscription
        }
        subscription?.request(demand)
    }

    /// Cancels the subscription (and lets it go, unless the recorder keeps it).
    package func cancel() {
        let subscription = lock.withLock {
            let subscription = storedSubscription
            _ = takeSubscription(if: .onCancel)
            return subscription
        }
        subscription?.cancel()
    }

    /// Takes the subscription out if `release` says so. Call with `lock` held.
    private func takeSubscription(if reason: SubscriptionRelease) -> (any Subscription)? {
        guard release.contains(reason) else { return nil }
        defer { storedSubscription = nil }
        return storedSubscription
    }

    // MARK: Waiting

    /// Waits until `condition` holds for the recorded events, or until `timeout`
    /// seconds have passed; returns whether it holds.
    @discardableResult
    package func wait(timeout: Double = 10, until condition: ([Event]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while !condition(events) {
            if arrived.wait(timeout: deadline) == .timedOut { return condition(events) }
        }
        return true
    }

    /// Waits until at least `count` events are recorded.
    @discardableResult
    package func wait(forCount count: Int, timeout: Double = 10) -> Bool {
        wait(timeout: timeout) { $0.count >= count }
    }
}
