/// The subscription of an operator that delivers its upstream's events on a scheduler:
/// `receive(on:)` (each event as soon as the scheduler runs it) and `delay(for:...)`
/// (each event `delay` after it arrived).
///
/// Each upstream event is queued in upstream order when it arrives, and one action is
/// scheduled per event; each action that runs delivers the oldest queued event, so
/// deliveries keep the upstream's order even on a scheduler that runs actions
/// concurrently (`ready` counts actions that have run, so that no event is delivered
/// before its own action has run). One thread at a time delivers (`isDelivering`); none
/// holds the lock while calling the downstream.
///
/// The subscription itself reaches the downstream synchronously, and demand goes
/// straight to the upstream. After `cancel()`, deliveries still waiting are dropped, and
/// the downstream is let go of, as it is once the completion was delivered. An action
/// holds the subscription until it has run (a subscriber need not keep its
/// subscription for a delayed event to arrive).
///
/// The upstream calls it through its `Subscriber` conformance, so its code runs generic
/// (unspecialized): each generic type it touches is looked up at run time, and each
/// stored property it touches is checked for exclusivity. So the per-event path touches
/// only concrete types (`[Any]`, a boxed downstream, flags) and unchecked fields, with
/// the completion's types out of line: `receive(on: ImmediateScheduler.shared)` went from
/// 866 to 125 ns a value (OpenCombine: 245).
final class ScheduledDelivery<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription, CombineReflectable {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let description: String
    private let scheduler: Context
    private let options: Context.SchedulerOptions?
    /// Whether each event waits `delayInterval` (with `delayTolerance`) after it came, or
    /// goes as soon as the scheduler runs its action. Not an optional tuple: this code
    /// runs as generic code (see `values`), where each check of one looked up the tuple's
    /// metadata.
    private let isDelayed: Bool
    private let delayInterval: Context.SchedulerTimeType.Stride
    private let delayTolerance: Context.SchedulerTimeType.Stride
    private let lock = Lock()
    // Guarded by `lock`, which orders every access: `@exclusivity(unchecked)` saves the
    // dynamic exclusivity checks that generic code makes on each.
    /// The downstream, boxed (see `SubscriberBox`).
    @exclusivity(unchecked) private var downstream: SubscriberBox<Downstream>?
    /// `upstreamFinished`: the completion waits in `completion`; `terminal`: cancelled, or
    /// the completion was taken to be delivered.
    @exclusivity(unchecked) private var status = UpstreamStatus.awaitingSubscription
    /// Whether a thread is delivering (the others leave their events to it).
    @exclusivity(unchecked) private var isDelivering = false
    /// The values still owed, oldest first from `head`; a slot is emptied (to `()`) when
    /// its value is taken, so that the deliverer holds the only copy and releases it
    /// outside the lock.
    ///
    /// Held as `Any`: the upstream calls this subscriber through its `Subscriber`
    /// conformance, so this code runs generic, and there an array of a generic element
    /// type (the shared `DeliveryQueue`'s events) looked up its element's, optional's and
    /// array's metadata at each append and removal: `receive(on:
    /// ImmediateScheduler.shared)` measured 866 ns a value, most of it in
    /// `swift_getGenericMetadata`. An `[Any]` is concrete; a value goes in with its type
    /// and comes out with a cast that cannot fail.
    @exclusivity(unchecked) private var values: [Any] = []
    @exclusivity(unchecked) private var head = 0
    /// The upstream's completion, owed after every value; `hasCompletion` says whether it
    /// is there without touching it (see `deliverCompletion(to:)`).
    @exclusivity(unchecked) private var completion: Subscribers.Completion<Failure>?
    @exclusivity(unchecked) private var hasCompletion = false
    /// Scheduled actions that have run and whose event is due.
    @exclusivity(unchecked) private var ready = 0

    init(
        name: String, downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?,
        delay: (interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride)?
    ) {
        description = name
        self.downstream = SubscriberBox(downstream)
        self.scheduler = scheduler
        self.options = options
        isDelayed = delay != nil
        delayInterval = delay?.interval ?? .zero
        delayTolerance = delay?.tolerance ?? .zero
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
        downstream.subscriber.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard status.isSubscribed else {
            lock.unlock()
            return .none
        }
        values.append(input)
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
        self.completion = completion
        hasCompletion = true
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
        head = 0
        let dropped = (values, completion.take(), downstream)
        hasCompletion = false
        downstream = nil
        values = []
        lock.unlock()
        upstream?.cancel()
        withExtendedLifetime(dropped) {}
    }

    /// Schedules the action that delivers the oldest event.
    private func scheduleDelivery() {
        if isDelayed {
            scheduler.schedule(
                after: scheduler.now.advanced(by: delayInterval), tolerance: delayTolerance, options: options
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
        guard !isDelivering else {
            lock.unlock()
            return
        }
        isDelivering = true
        // Released after unlocking. `AnyObject?`: `withExtendedLifetime` of a
        // `SubscriberBox<Downstream>?` would look up that type's metadata for each value.
        var finished: AnyObject?
        while ready > 0, let downstream {
            if head < values.count {
                ready -= 1
                var value: Any = ()
                swap(&value, &values[head])
                head += 1
                if head == values.count {
                    values.removeAll(keepingCapacity: true)
                    head = 0
                }
                lock.unlock()
                // Cannot fail: `receive(_:)` stored an `Input`. Consumed, so that this
                // copy is released before the lock is taken again (the value's `deinit`
                // may run user code).
                let demand = downstream.subscriber.receive((consume value) as! Input)
                lock.lock()
                if demand > .none, case .subscribed(let upstream) = status {
                    lock.unlock()
                    upstream.request(demand)
                    lock.lock()
                }
            } else if hasCompletion {
                ready -= 1
                status = .terminal
                finished = self.downstream
                self.downstream = nil
                deliverCompletion(to: downstream)
            } else {
                break
            }
        }
        isDelivering = false
        lock.unlock()
        withExtendedLifetime(finished) {}
    }

    /// Called with the lock held: takes the completion, delivers it with the lock
    /// released, and locks again. Out of line because generic code looks up the metadata
    /// of the types a function uses on entry, and `deliverNext()` would then look up
    /// `Completion<Failure>?`'s for each value.
    @inline(never)
    private func deliverCompletion(to downstream: SubscriberBox<Downstream>) {
        let taken = completion.take()
        hasCompletion = false
        lock.unlock()
        // Consumed, so that it is released (a failure's error may hold the last reference
        // to an object) before the lock is taken again.
        if let completion = consume taken { downstream.subscriber.receive(completion: completion) }
        lock.lock()
    }
}
