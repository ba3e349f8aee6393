extension Publisher {
    /// Publishes, for each value, the time since the previous one (for the first, since
    /// the subscription), measured on `scheduler`'s clock, as in Combine.
    ///
    /// ```swift
    /// let c = keystrokes
    ///     .measureInterval(using: DispatchQueue.main)
    ///     .sink { print("typed after", $0) }
    /// ```
    public func measureInterval<S: Scheduler>(
        using scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// A publisher that measures the intervals between its upstream's values, as in
    /// Combine. Create one with ``Publisher/measureInterval(using:options:)``.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The time between two values, in the scheduler's units.
        public typealias Output = Context.SchedulerTimeType.Stride
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler whose clock measures the intervals.
        public let scheduler: Context

        /// Creates a publisher that measures the intervals between `upstream`'s values.
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Subscribes `subscriber` to the upstream through the measuring subscriber.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }
    }
}

extension Publishers.MeasureInterval {
    /// Keeps the time of the last value (first, of the subscription) and passes the
    /// upstream subscription through, so demand and cancellation go straight upstream.
    private final class Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        let downstream: Downstream
        let scheduler: Context
        let lock = Lock()
        /// Guarded by `lock`: set when the subscription arrives.
        var last: Context.SchedulerTimeType?

        init(downstream: Downstream, scheduler: Context) {
            self.downstream = downstream
            self.scheduler = scheduler
        }

        var description: String { "MeasureInterval" }

        func receive(subscription: any Subscription) {
            let now = scheduler.now
            lock.withLock { last = now }
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            // The scheduler is outside code: ask it the time before taking the lock.
            let now = scheduler.now
            let interval: Context.SchedulerTimeType.Stride? = lock.withLock {
                guard let last else { return nil }
                self.last = now
                return last.distance(to: now)
            }
            guard let interval else { return .none }   // before the subscription: dropped
            return downstream.receive(interval)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }
    }
}
