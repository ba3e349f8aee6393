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
            upstream.subscribe(ScheduledDelivery(
                name: "ReceiveOn", downstream: subscriber, scheduler: scheduler, options: options, delay: nil))
        }
    }
}
