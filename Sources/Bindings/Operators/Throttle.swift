extension Publisher {
    /// Publishes either the most recent or the first element published by the upstream
    /// publisher in each time interval, as in Combine.
    ///
    /// The first value is delivered at once (through `scheduler.schedule`); after each
    /// delivery, nothing more is delivered for `interval`. A value that arrives within
    /// the interval is held and delivered when the interval ends: with `latest: true`
    /// the most recent value received meanwhile, with `latest: false` the first one.
    /// A completion is delivered right after a held value, or at once when nothing is
    /// held. Values are delivered on `scheduler`.
    ///
    /// ```swift
    /// let c = scrollOffsets
    ///     .throttle(for: .milliseconds(100), scheduler: DispatchQueue.main, latest: true)
    ///     .sink { render($0) }
    /// ```
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// A publisher that publishes either the most recent or the first element published
    /// by the upstream publisher in a specified time interval, as in Combine. Create one
    /// with ``Publisher/throttle(for:scheduler:latest:)``.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values this publisher publishes.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The interval in which to find and emit the most recent (or first) element.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler on which to publish elements.
        public let scheduler: Context
        /// Whether to publish the most recent element of an interval (`true`) or the
        /// first (`false`).
        public let latest: Bool

        /// Creates a publisher that throttles `upstream`.
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Subscribes `subscriber` to the upstream through a throttling subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

extension Publishers.Throttle {
    /// The subscription. It requests unlimited values from the upstream and counts the
    /// downstream's demand itself, as Combine's does: a value that arrives when no
    /// emission is pending takes one unit of demand (and is dropped when there is none);
    /// the values that then replace it (`latest`) use that same unit.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        /// `nil` once cancelled, or once the completion was delivered: the subscription
        /// then lets go of its subscriber (which may keep the subscription), as Combine's
        /// does. Guarded by `lock`; the deliverer calls a copy.
        private var downstream: Downstream?
        private let interval: Context.SchedulerTimeType.Stride
        private let scheduler: Context
        private let latest: Bool
        private let lock = Lock()
        // All of the following are guarded by `lock`.
        /// `upstreamFinished`: the completion waits in `pendingCompletion`.
        private var status = UpstreamStatus.awaitingSubscription
        private var demand = Subscribers.Demand.none
        /// Whether an emission action is scheduled and has not run yet.
        private var emissionScheduled = false
        private var pendingValue: Input?
        private var pendingCompletion: Subscribers.Completion<Failure>?
        private var lastEmission: Context.SchedulerTimeType?
        private var queue = DeliveryQueue<Input, Failure>()

        init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.downstream = downstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        var description: String { "Throttle" }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard status.accept(subscription) else {
                lock.unlock()
                subscription.cancel()
                return
            }
            let downstream = self.downstream
            lock.unlock()
            // The subscriber first: an upstream that sends at once (`Just`, a sequence, a
            // property's current value) would otherwise reach it before its subscription,
            // a value with no demand yet (dropped) and a completion out of order.
            downstream?.receive(subscription: self)
            lock.lock()
            let live = status.isSubscribed
            lock.unlock()
            if live { subscription.request(.unlimited) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            // The scheduler is outside code: ask it the time before taking the lock.
            let now = scheduler.now
            lock.lock()
            guard status.isSubscribed else {
                lock.unlock()
                return .none
            }
            if emissionScheduled {
                var replaced: Input?
                if latest {
                    replaced = pendingValue
                    pendingValue = input
                }
                lock.unlock()
                withExtendedLifetime(replaced) {}
                return .none
            }
            guard demand > .none else {
                lock.unlock()
                return .none
            }
            demand -= 1
            pendingValue = input
            emissionScheduled = true
            let earliest = lastEmission?.advanced(by: interval)
            lock.unlock()
            // Weak: a scheduled emission does not keep a cancelled subscription alive
            // until its time comes.
            if let earliest, now < earliest {
                scheduler.schedule(after: earliest) { [weak self] in self?.emit() }
            } else {
                scheduler.schedule { [weak self] in self?.emit() }
            }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            // The upstream subscription is released after unlocking, like every value.
            guard let finishedUpstream = status.markUpstreamFinished() else {
                lock.unlock()
                return
            }
            pendingCompletion = completion
            // A scheduled emission delivers the completion right after its value.
            let alreadyScheduled = emissionScheduled
            emissionScheduled = true
            lock.unlock()
            withExtendedLifetime(finishedUpstream) {}
            if !alreadyScheduled { scheduler.schedule { [weak self] in self?.emit() } }
        }

        func request(_ demand: Subscribers.Demand) {
            // `.none` is accepted (adds nothing; an operator passes it upstream, which
            // decides), as in Combine, which traps on it only in some subscriptions.
            lock.withLock { self.demand += demand }
        }

        func cancel() {
            lock.lock()
            let upstream = status.terminate()
            // The subscriber goes with the rest, unless a delivery is under way: the
            // deliverer holds its copy until that call returns.
            let dropped = (pendingValue, queue.removeAll(), downstream)
            downstream = nil
            pendingValue = nil
            pendingCompletion = nil
            lock.unlock()
            upstream?.cancel()
            withExtendedLifetime(dropped) {}
        }

        /// The scheduled emission: delivers the held value, then the held completion.
        private func emit() {
            let now = scheduler.now
            lock.lock()
            switch status {
            case .subscribed, .upstreamFinished: break
            case .awaitingSubscription, .terminal:
                lock.unlock()
                return
            }
            emissionScheduled = false
            if let value = pendingValue.take() {
                lastEmission = now
                queue.append(.value(value))
            }
            if let completion = pendingCompletion.take() {
                status = .terminal
                queue.append(.completion(completion))
            }
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
