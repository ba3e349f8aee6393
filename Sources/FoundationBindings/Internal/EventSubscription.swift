import Bindings
import Foundation

/// The subscription behind every publisher of this module: it takes values from a system
/// source (a notification observer, a timer, a dispatch source, a termination handler),
/// honours the subscriber's demand, and delivers in order, one call at a time.
///
/// How a publisher uses it:
/// 1. create it and pass it to `downstream.receive(subscription:)`;
/// 2. unless it was cancelled meanwhile (``isActive``), install the source, whose
///    callbacks call ``send(_:)`` and ``finish(_:)``;
/// 3. hand the source's teardown to ``attach(stop:demandDidIncrease:)``. It runs exactly
///    once: when the subscriber cancels, when the publisher finishes, or at once if
///    either happened before the source was attached.
///
/// Delivery is queue-drained, like the core's subjects: a value is appended under the
/// lock, and the one thread that finds nobody delivering drains the queue, releasing the
/// lock around each call to the subscriber. So a subscriber that re-enters (requests
/// more, cancels) from inside `receive(_:)` never deadlocks, and values that arrive on
/// several threads at once reach it one at a time. A value may therefore arrive on a
/// thread other than the one its source produced it on: on the thread that was already
/// delivering, or on the thread that calls `request(_:)` when it waited for demand.
///
/// Lifetime: the source's callbacks hold this object strongly (as Combine's publishers
/// do), and the teardown releases them; the subscriber and the source are both released
/// on cancel and after the completion is delivered.
///
/// `@unchecked Sendable`: `downstream`, `demand`, `pending`, `head`, `completion`,
/// `isDelivering`, `stopSource`, `demandHook` and `isStopped` are only touched with `lock`
/// held; `policy` is a `let`. The subscriber, the teardown and the demand hook are called
/// with the lock released, the subscriber by one thread at a time (`isDelivering`).
final class EventSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = NSLock()
    private let policy: OverflowPolicy
    /// The subscriber; `nil` once cancelled or once the completion is on its way.
    private var downstream: Downstream?
    /// Demand not yet used by a delivered value.
    private var demand = Subscribers.Demand.none
    /// Values waiting for delivery, from `head` on; slots before `head` are empty
    /// (`nil`), so that a delivered value is not kept alive.
    private var pending: [Output?] = []
    private var head = 0
    /// The completion, once the source has finished; delivered after `pending`.
    private var completion: Subscribers.Completion<Failure>?
    /// Whether a thread is inside ``drain()``; others only append.
    private var isDelivering = false
    /// The source's teardown, until it has run.
    private var stopSource: (() -> Void)?
    /// Called after each `request(_:)`, for sources that pause without demand.
    private var demandHook: (() -> Void)?
    /// Whether the source is finished or cancelled: it must stop, and no value is taken.
    private var isStopped = false

    /// Creates a subscription for `downstream` that treats values arriving without
    /// demand according to `policy`.
    init(downstream: Downstream, policy: OverflowPolicy) {
        self.downstream = downstream
        self.policy = policy
    }

    var description: String { "EventSubscription" }

    /// Whether the source should still run: not cancelled and not finished.
    var isActive: Bool {
        lock.withLock { !isStopped }
    }

    /// Whether the subscriber has demand left that no waiting value will use: a source
    /// that pauses without demand asks this before it produces.
    var hasUnmetDemand: Bool {
        lock.withLock { !isStopped && demand > pending.count - head }
    }

    /// Gives the subscription its source's teardown, and optionally a hook to call after
    /// each `request(_:)`. If the subscription already stopped, `stop` runs now.
    func attach(stop: @escaping () -> Void, demandDidIncrease: (() -> Void)? = nil) {
        lock.lock()
        if isStopped {
            lock.unlock()
            stop()
            return
        }
        stopSource = stop
        demandHook = demandDidIncrease
        lock.unlock()
    }

    /// Offers a value from the source; what happens without demand depends on the
    /// policy. Delivers it (and anything waiting) unless another thread is delivering.
    func send(_ value: Output) {
        lock.lock()
        guard !isStopped else {
            lock.unlock()
            return
        }
        let waiting = pending.count - head
        // A replaced value is released after unlocking: its deinit may run user code.
        var replaced: Output?
        if demand > waiting || policy == .buffer {
            pending.append(value)
        } else {
            switch policy {
            case .drop, .buffer:
                lock.unlock()
                return
            case .keepLatest:
                if waiting > 0 {
                    replaced = pending[pending.count - 1].take()
                    pending[pending.count - 1] = value
                } else {
                    pending.append(value)
                }
            }
        }
        lock.unlock()
        withExtendedLifetime(replaced) {}
        drain()
    }

    /// Ends the stream after the values already waiting: stops the source at once and
    /// delivers the completion when the waiting values are delivered (completion needs
    /// no demand). Later values and completions are ignored.
    func finish(_ completion: Subscribers.Completion<Failure> = .finished) {
        lock.lock()
        guard !isStopped else {
            lock.unlock()
            return
        }
        isStopped = true
        self.completion = completion
        let stop = takeSourceHooks()
        lock.unlock()
        stop?()
        drain()
    }

    func request(_ demand: Subscribers.Demand) {
        if demand == .none {
            // The core's check is internal to `Bindings`; same rule, same message.
            fatalError(
                "Bindings: request(_:) was called with a demand of zero (.none or .max(0)); request .max(1) or more, or .unlimited, or simply do not call request(_:) when you want nothing more")
        }
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        self.demand += demand
        let hook = demandHook
        lock.unlock()
        drain()
        hook?()
    }

    func cancel() {
        lock.lock()
        guard downstream != nil || !isStopped else {
            lock.unlock()
            return
        }
        isStopped = true
        let subscriber = downstream
        downstream = nil
        completion = nil
        let dropped = takePending()
        let stop = takeSourceHooks()
        lock.unlock()
        // Released here, outside the lock: their deinits may run user code.
        withExtendedLifetime((subscriber, dropped)) {}
        stop?()
    }

    /// Delivers waiting values while there is demand, then the completion once nothing
    /// waits. Only one thread delivers at a time; the others return at once and leave
    /// their values to it.
    private func drain() {
        lock.lock()
        guard !isDelivering else {
            lock.unlock()
            return
        }
        isDelivering = true
        while let subscriber = downstream {
            if head < pending.count, demand > 0 {
                let value = pending[head].take()!
                head += 1
                if head == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    head = 0
                }
                demand -= 1
                lock.unlock()
                let more = subscriber.receive(value)
                lock.lock()
                if more != .none, downstream != nil { demand += more }
            } else if head == pending.count, let completion {
                self.completion = nil
                downstream = nil
                isDelivering = false
                lock.unlock()
                subscriber.receive(completion: completion)
                return
            } else {
                break
            }
        }
        isDelivering = false
        lock.unlock()
    }

    /// Takes the source's hooks, so that the teardown runs once. Lock held.
    private func takeSourceHooks() -> (() -> Void)? {
        let stop = stopSource
        stopSource = nil
        demandHook = nil
        return stop
    }

    /// Takes the waiting values, for the caller to release after unlocking. Lock held.
    private func takePending() -> [Output?] {
        let taken = pending
        pending = []
        head = 0
        return taken
    }
}
