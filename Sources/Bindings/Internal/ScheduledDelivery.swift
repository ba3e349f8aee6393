/// The subscription of an operator that delivers its upstream's events on a scheduler:
/// `receive(on:)` (each event as soon as the scheduler runs it) and `delay(for:...)`
/// (each event `delay` after it arrived).
///
/// Each upstream event is queued in upstream order when it arrives, and one action is
/// scheduled per event; each action that runs delivers the oldest queued event, so
/// deliveries keep the upstream's order even on a scheduler that runs actions
/// concurrently (`ready` counts actions that have run, so that no event is delivered
/// before its own action has run). One thread at a time delivers (the queue's
/// `isDelivering`); none holds the lock while calling the downstream.
///
/// The subscription itself reaches the downstream synchronously, and demand goes
/// straight to the upstream. After `cancel()`, deliveries still waiting are dropped, and
/// the downstream is let go of, as it is once the completion was delivered. An action
/// holds the subscription until it has run (a subscriber need not keep its
/// subscription for a delayed event to arrive).
final class ScheduledDelivery<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription, CombineReflectable {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let description: String
    private let scheduler: Context
    private let options: Context.SchedulerOptions?
    /// `nil`: each event as soon as the scheduler runs it; else this long after it came.
    private let delay: (interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride)?
    private let lock = Lock()
    // Guarded by `lock`.
    private var downstream: Downstream?
    /// `upstreamFinished`: the completion waits in `queue`; `terminal`: cancelled, or the
    /// completion was taken from `queue` to be delivered.
    private var status = UpstreamStatus.awaitingSubscription
    private var queue = DeliveryQueue<Input, Failure>()
    /// Scheduled actions that have run and whose event is due.
    private var ready = 0

    init(
        name: String, downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?,
        delay: (interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride)?
    ) {
        description = name
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
        self.delay = delay
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        // `accept` last: when it succeeds it keeps the subscription, which must not then
        // be cancelled.
        guard let downstream, status.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard status.isSubscribed else {
            lock.unlock()
            return .none
        }
        queue.append(.value(input))
        lock.unlock()
        scheduleDelivery()
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // The upstream subscription is released after unlocking, like every value.
        guard let finishedUpstream = status.markUpstreamFinished() else {
            lock.unlock()
            return
        }
        queue.append(.completion(completion))
        lock.unlock()
        withExtendedLifetime(finishedUpstream) {}
        scheduleDelivery()
    }

    func request(_ demand: Subscribers.Demand) {
        // `.none` is accepted (adds nothing; an operator passes it upstream, which
        // decides), as in Combine, which traps on it only in some subscriptions.
        lock.lock()
        guard case .subscribed(let upstream) = status else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }

    func cancel() {
        lock.lock()
        let upstream = status.terminate()
        ready = 0
        // A delivery under way holds its own copy of the downstream until it returns.
        let dropped = (queue.removeAll(), downstream.take())
        lock.unlock()
        upstream?.cancel()
        withExtendedLifetime(dropped) {}
    }

    /// Schedules the action that delivers the oldest event.
    private func scheduleDelivery() {
        if let delay {
            scheduler.schedule(
                after: scheduler.now.advanced(by: delay.interval), tolerance: delay.tolerance, options: options
            ) { self.deliverNext() }
        } else {
            scheduler.schedule(options: options) { self.deliverNext() }
        }
    }

    /// A scheduled action: delivers the oldest event, or, when another thread is
    /// delivering, leaves it to that thread.
    private func deliverNext() {
        lock.lock()
        if case .terminal = status {
            lock.unlock()
            return
        }
        ready += 1
        guard !queue.isDelivering else {
            lock.unlock()
            return
        }
        queue.isDelivering = true
        var finished: Downstream?   // released after unlocking
        while ready > 0, let downstream, let event = queue.popFirst() {
            ready -= 1
            var isCompletion = false
            if case .completion = event {
                status = .terminal
                isCompletion = true
            }
            lock.unlock()
            let demand = (consume event).deliver(to: downstream)
            lock.lock()
            if isCompletion {
                finished = self.downstream.take()
            } else if demand > .none, case .subscribed(let upstream) = status {
                lock.unlock()
                upstream.request(demand)
                lock.lock()
            }
        }
        queue.isDelivering = false
        lock.unlock()
        withExtendedLifetime(finished) {}
    }
}
