extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher, as in
    /// Combine.
    ///
    /// Values and the completion are delivered on `scheduler`, in the order the
    /// upstream sent them. The subscription itself is received synchronously, and demand
    /// goes straight to the upstream. After `cancel()`, deliveries still waiting on the
    /// scheduler are dropped.
    ///
    /// ```swift
    /// let c = model.$status
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { label.text = $0 }   // runs on the main queue
    /// ```
    public func receive<S: Scheduler>(
        on scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific
    /// scheduler, as in Combine. Create one with ``Publisher/receive(on:options:)``.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values this publisher publishes.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler the publisher uses for element delivery.
        public let scheduler: Context
        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers `upstream`'s elements on `scheduler`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes `subscriber` to the upstream through a subscription that delivers on the scheduler.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

extension Publishers.ReceiveOn {
    /// The subscription: it queues each upstream event, schedules one action per event,
    /// and each action that runs delivers the oldest queued event.
    ///
    /// Every event is queued in upstream order at receive time, so deliveries keep that
    /// order even on a scheduler that runs actions concurrently; `ready` counts actions
    /// that have run, so that no event is delivered before its own action has run.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private enum Status {
            case awaitingSubscription
            case subscribed(any Subscription)
            /// The upstream completed; its completion waits in `queue`.
            case upstreamFinished
            /// Cancelled, or the completion was delivered.
            case terminal
        }

        private let downstream: Downstream
        private let scheduler: Context
        private let options: Context.SchedulerOptions?
        private let lock = Lock()
        /// Guarded by `lock`.
        private var status = Status.awaitingSubscription
        /// Guarded by `lock`.
        private var queue = DeliveryQueue<Input, Failure>()
        /// Guarded by `lock`: scheduled actions that have run and whose event is due.
        private var ready = 0

        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.downstream = downstream
            self.scheduler = scheduler
            self.options = options
        }

        var description: String { "ReceiveOn" }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSubscription = status else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status = .subscribed(subscription)
            lock.unlock()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed = status else {
                lock.unlock()
                return .none
            }
            queue.append(.value(input))
            lock.unlock()
            // The action holds the subscription until it has run.
            scheduler.schedule(options: options) { self.deliverNext() }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .subscribed = status else {
                lock.unlock()
                return
            }
            // The upstream subscription is released after unlocking, like every value.
            let finishedUpstream = status
            status = .upstreamFinished
            queue.append(.completion(completion))
            lock.unlock()
            withExtendedLifetime(finishedUpstream) {}
            scheduler.schedule(options: options) { self.deliverNext() }
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
            let upstream: (any Subscription)?
            if case .subscribed(let subscription) = status { upstream = subscription } else { upstream = nil }
            status = .terminal
            ready = 0
            let dropped = queue.removeAll()
            lock.unlock()
            upstream?.cancel()
            withExtendedLifetime(dropped) {}
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
            while ready > 0, let event = queue.popFirst() {
                ready -= 1
                if case .completion = event { status = .terminal }
                lock.unlock()
                let demand = (consume event).deliver(to: downstream)
                lock.lock()
                if demand > .none, case .subscribed(let upstream) = status {
                    lock.unlock()
                    upstream.request(demand)
                    lock.lock()
                }
            }
            queue.isDelivering = false
            lock.unlock()
        }
    }
}
