extension Publisher {
    /// Publishes elements only after a specified time interval elapses between events,
    /// as in Combine.
    ///
    /// Each value starts a timer of `dueTime` on `scheduler`; a newer value replaces it
    /// and restarts the timer. When the timer ends, the latest value is delivered on
    /// `scheduler` (or dropped, when the downstream has no demand for it).
    ///
    /// When the upstream completes, a value still waiting for its quiet period is
    /// dropped and the completion is delivered on `scheduler` at once. This is what
    /// Combine does (OpenCombine's compatibility tests, which run against Combine, check
    /// it): debounce waits for the stream to settle, and a finished stream is not a
    /// pause. Add the last value yourself if you need it.
    ///
    /// ```swift
    /// let c = searchField.$text
    ///     .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
    ///     .sink { search($0) }
    /// ```
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses
    /// between events, as in Combine. Create one with
    /// ``Publisher/debounce(for:scheduler:options:)``.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values this publisher publishes.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The amount of time the publisher should wait before publishing an element.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// The scheduler on which this publisher delivers elements.
        public let scheduler: Context
        /// Scheduler options that customize this publisher's delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that debounces `upstream`.
        public init(
            upstream: Upstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes `subscriber` to the upstream through a debouncing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
        }
    }
}

extension Publishers.Debounce {
    /// The subscription. It requests unlimited values from the upstream and counts the
    /// downstream's demand itself, as Combine's does.
    ///
    /// Each value bumps `generation` and gets a timer; a timer whose generation is no
    /// longer current does nothing. The timer is a repeating one only so that it can be
    /// cancelled (a one-shot `schedule(after:)` cannot be); it is cancelled at its first
    /// firing, by the next value, by the completion and by `cancel()`.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        /// Let go of once the completion is delivered or the subscription cancelled, so that
        /// a subscriber that keeps its subscription is not kept by it in turn (as in
        /// Combine). Guarded by `lock`; the deliverer calls a copy.
        private var downstream: Downstream?
        private let dueTime: Context.SchedulerTimeType.Stride
        private let scheduler: Context
        private let options: Context.SchedulerOptions?
        private let lock = Lock()
        // All of the following are guarded by `lock`.
        /// `upstreamFinished`: the completion is scheduled.
        private var status = UpstreamStatus.awaitingSubscription
        private var generation: UInt64 = 0
        private var pending: Input?
        private var timer: (any Cancellable)?
        private var demand = Subscribers.Demand.none
        private var queue = DeliveryQueue<Input, Failure>()

        init(
            downstream: Downstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.downstream = downstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        var description: String { "Debounce" }

        /// The subscriber, its outstanding demand and the value waiting for its quiet
        /// period, as Combine shows them.
        var customMirror: Mirror {
            let (downstream, demand, pending) = lock.withLock { (self.downstream, self.demand, self.pending) }
            return Mirror(self, children: [
                // The subscriber itself, as Combine shows it (`nil` once it is let go of).
                "downstream": downstream.map { $0 as Any } ?? downstream as Any,
                "downstreamDemand": demand, "currentValue": pending as Any,
            ])
        }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard status.accept(subscription) else {
                lock.unlock()
                subscription.cancel()
                return
            }
            let downstream = self.downstream
            lock.unlock()
            downstream?.receive(subscription: self)
            lock.lock()
            let live = status.isSubscribed
            lock.unlock()
            if live { subscription.request(.unlimited) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            // The scheduler is outside code: ask it the time before taking the lock.
            let due = scheduler.now.advanced(by: dueTime)
            lock.lock()
            guard status.isSubscribed else {
                lock.unlock()
                return .none
            }
            generation &+= 1
            let current = generation
            let replaced = pending
            pending = input
            let previousTimer = timer
            timer = nil
            lock.unlock()
            previousTimer?.cancel()
            withExtendedLifetime(replaced) {}

            let newTimer = scheduler.schedule(
                after: due, interval: dueTime, tolerance: scheduler.minimumTolerance, options: options
            ) { self.due(current) }

            // The timer may already have fired (a synchronous scheduler, or another
            // thread), or a newer value may have come: then nobody else will cancel it.
            lock.lock()
            let keep = generation == current && pending != nil && status.isSubscribed
            if keep { timer = newTimer }
            lock.unlock()
            if !keep { newTimer.cancel() }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            // The upstream subscription is released after unlocking, like every value.
            guard let finishedUpstream = status.markUpstreamFinished() else {
                lock.unlock()
                return
            }
            generation &+= 1
            let dropped = pending
            pending = nil
            let previousTimer = timer
            timer = nil
            lock.unlock()
            previousTimer?.cancel()
            withExtendedLifetime((dropped, finishedUpstream)) {}
            // Combine schedules the completion without the options.
            scheduler.schedule(options: nil) { self.finish(completion) }
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero()
            lock.withLock { self.demand += demand }
        }

        func cancel() {
            lock.lock()
            let upstream = status.terminate()
            // The subscriber goes with the rest, unless a delivery is under way: the
            // deliverer holds its copy until that call returns.
            let dropped = (pending, queue.removeAll(), downstream)
            downstream = nil
            pending = nil
            let previousTimer = timer
            timer = nil
            lock.unlock()
            previousTimer?.cancel()
            upstream?.cancel()
            withExtendedLifetime(dropped) {}
        }

        /// The timer of the value of generation `current` fired.
        private func due(_ current: UInt64) {
            lock.lock()
            guard status.isSubscribed, generation == current, let value = pending else {
                lock.unlock()
                return
            }
            pending = nil
            let firedTimer = timer
            timer = nil
            guard demand > .none else {
                lock.unlock()
                firedTimer?.cancel()
                withExtendedLifetime(value) {}
                return
            }
            demand -= 1
            queue.append(.value(value))
            deliverQueued()
            firedTimer?.cancel()
        }

        private func finish(_ completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .upstreamFinished = status else {
                lock.unlock()
                return
            }
            status = .terminal
            queue.append(.completion(completion))
            deliverQueued()
        }

        /// Called with `lock` held; returns with it released. Delivers the queued
        /// events unless another thread is already doing so.
        private func deliverQueued() {
            guard !queue.isDelivering else {
                lock.unlock()
                return
            }
            queue.isDelivering = true
            var finished: Downstream?   // released after unlocking
            while let event = queue.popFirst(), let downstream = self.downstream {
                var isCompletion = false
                if case .completion = event { isCompletion = true }
                lock.unlock()
                // The copy goes before the lock is taken again: a cancel meanwhile may
                // have left it the last reference, and the subscriber's `deinit` may
                // call back in (a kept `AnyCancellable` cancels).
                let more = (consume event).deliver(to: consume downstream)
                lock.lock()
                if isCompletion {
                    finished = self.downstream.take()
                } else if more > .none {
                    demand += more
                }
            }
            queue.isDelivering = false
            lock.unlock()
            withExtendedLifetime(finished) {}
        }
    }
}
