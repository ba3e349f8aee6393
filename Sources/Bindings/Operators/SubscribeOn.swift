extension Publisher {
    /// Subscribes to the upstream, and sends it demand and cancellation, on `scheduler`,
    /// as in Combine; values and the completion arrive wherever the upstream sends them.
    ///
    /// ```swift
    /// let c = expensiveQuery
    ///     .subscribe(on: DispatchQueue.global())   // the query starts off this thread
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { show($0) }
    /// ```
    public func subscribe<S: Scheduler>(
        on scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that subscribes to its upstream, and sends it requests and
    /// cancellation, on a scheduler, as in Combine. Create one with
    /// ``Publisher/subscribe(on:options:)``.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values this publisher publishes: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler on which the upstream is subscribed to, asked and cancelled.
        public let scheduler: Context
        /// Scheduler options that customize those calls.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that subscribes to `upstream` on `scheduler`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Schedules the subscription to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options) { upstream.subscribe(inner) }
        }
    }
}

extension Publishers.SubscribeOn {
    /// Hands the subscriber its own subscription, whose requests and cancel run on the
    /// scheduler; events pass straight through.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        let scheduler: Context
        let options: Context.SchedulerOptions?
        let lock = Lock()
        // Guarded by `lock`; both let go of at the end (completion or cancel).
        var downstream: Downstream?
        var upstream: (any Subscription)?
        var cancelled = false

        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.downstream = downstream
            self.scheduler = scheduler
            self.options = options
        }

        var description: String { "SubscribeOn" }

        func receive(subscription: any Subscription) {
            let downstream: Downstream? = lock.withLock {
                guard upstream == nil, !cancelled else { return nil }
                upstream = subscription
                return self.downstream
            }
            guard let downstream else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard let downstream = lock.withLock({ cancelled ? nil : self.downstream }) else { return .none }
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            let ended: (Downstream?, (any Subscription)?) = lock.withLock {
                guard !cancelled else { return (nil, nil) }
                cancelled = true
                return (self.downstream.take(), upstream.take())
            }
            ended.0?.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            guard let upstream = lock.withLock({ cancelled ? nil : self.upstream }) else { return }
            scheduler.schedule(options: options) { upstream.request(demand) }
        }

        func cancel() {
            let ended: (Downstream?, (any Subscription)?) = lock.withLock {
                guard !cancelled else { return (nil, nil) }
                cancelled = true
                return (self.downstream.take(), upstream.take())
            }
            guard let upstream = ended.1 else { return }
            scheduler.schedule(options: options) { upstream.cancel() }
        }
    }
}
