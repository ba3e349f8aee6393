extension Publisher {
    /// Delays the delivery of every value and of the completion by `interval`, on
    /// `scheduler`, as in Combine; the subscription itself is not delayed.
    ///
    /// ```swift
    /// let c = clicks
    ///     .delay(for: .milliseconds(300), scheduler: DispatchQueue.main)
    ///     .sink { showTooltip() }   // 300 ms after each click, on the main queue
    /// ```
    ///
    /// Events keep their upstream order. Demand goes straight to the upstream. After
    /// `cancel()`, events still waiting are dropped.
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delays the delivery of elements and of the completion, as in
    /// Combine. Create one with ``Publisher/delay(for:tolerance:scheduler:options:)``.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values this publisher publishes: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// How long each event is delayed.
        public let interval: Context.SchedulerTimeType.Stride
        /// The tolerance allowed in firing the delayed events.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// The scheduler that delivers the delayed events.
        public let scheduler: Context
        /// Scheduler options that customize the delivery.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delays `upstream`'s events by `interval`.
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes `subscriber` to the upstream through a subscription that delivers
        /// each event `interval` after it arrived.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ScheduledDelivery(
                name: "Delay", downstream: subscriber, scheduler: scheduler, options: options,
                delay: (interval, tolerance)))
        }
    }
}
