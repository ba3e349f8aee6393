extension Publisher {
    /// Ends the stream if the upstream goes `interval` without sending anything (from the
    /// subscription, then from each value), as in Combine: the upstream is cancelled and
    /// the subscriber receives `.finished`, or `.failure(customError())` if given.
    ///
    /// ```swift
    /// let c = response
    ///     .timeout(.seconds(5), scheduler: DispatchQueue.main, customError: { .timedOut })
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { show($0) })
    /// ```
    ///
    /// As Combine's, it asks the upstream for every value (`.unlimited`) and delivers the
    /// values and the completion on `scheduler`, in order.
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}

extension Publishers {
    /// A publisher that ends its stream when the upstream stays silent too long, as in
    /// Combine. Create one with ``Publisher/timeout(_:scheduler:options:customError:)``.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values this publisher publishes: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The longest the upstream may stay silent.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler that measures the silence and delivers the events.
        public let scheduler: Context
        /// Scheduler options that customize the delivery.
        public let options: Context.SchedulerOptions?
        /// Makes the failure sent on a timeout; `nil` sends `.finished`.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a publisher that ends `upstream`'s stream after `interval` of silence.
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Subscribes `subscriber` to the upstream through the timing subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(
                downstream: subscriber, interval: interval, scheduler: scheduler, options: options,
                customError: customError))
        }
    }
}

extension Publishers.Timeout {
    /// The subscription: a timer restarted by each value, and the events delivered on the
    /// scheduler one at a time, in order (as `receive(on:)` delivers them).
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output

        /// Not ``UpstreamStatus``: `ending` is also reached on a timeout, when the upstream
        /// has not finished and `end` cancels it, where `UpstreamStatus.upstreamFinished`
        /// means the upstream is done (its subscription only released, never cancelled).
        private enum Status {
            case awaitingSubscription
            case subscribed(any Subscription)
            /// The upstream completed or timed out; the completion waits in `queue`.
            case ending
            /// Cancelled, or the completion was delivered.
            case terminal
        }

        private let interval: Context.SchedulerTimeType.Stride
        private let scheduler: Context
        private let options: Context.SchedulerOptions?
        private let customError: (() -> Failure)?
        private let lock = Lock()
        // Guarded by `lock`.
        private var downstream: Downstream?
        private var status = Status.awaitingSubscription
        private var timer: (any Cancellable)?
        /// Counts the timers started, so that a timer that fires after a value restarted
        /// the clock (it was cancelled too late) does nothing.
        private var timerGeneration = 0
        private var queue = DeliveryQueue<Input, Failure>()
        private var ready = 0

        init(
            downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?, customError: (() -> Failure)?
        ) {
            self.downstream = downstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        var description: String { "Timeout" }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSubscription = status, let downstream else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status = .subscribed(subscription)
            lock.unlock()
            // The subscription first: the clock may run out at once (with an immediate
            // scheduler, or on another thread), and the completion must come after it.
            downstream.receive(subscription: self)
            restartTimer()
            subscription.request(.unlimited)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed = status else {
                lock.unlock()
                return .none
            }
            queue.append(.value(input))
            lock.unlock()
            restartTimer()
            scheduler.schedule(options: options) { self.deliverNext() }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            end(with: completion, cancellingUpstream: false)
        }

        func request(_ demand: Subscribers.Demand) {
            // The upstream was asked for everything: nothing to pass on.
        }

        func cancel() {
            lock.lock()
            let upstream: (any Subscription)?
            if case .subscribed(let subscription) = status { upstream = subscription } else { upstream = nil }
            status = .terminal
            ready = 0
            let dropped = (queue.removeAll(), downstream.take(), timer.take())
            lock.unlock()
            dropped.2?.cancel()
            upstream?.cancel()
            withExtendedLifetime(dropped) {}
        }

        /// Starts the silence timer again (a repeating action, whose first run is the
        /// timeout: the scheduler's one-shot actions cannot be cancelled).
        private func restartTimer() {
            // The scheduler is outside code: called without the lock.
            let generation = lock.withLock { () -> Int in
                timerGeneration += 1
                return timerGeneration
            }
            let timer = scheduler.schedule(
                after: scheduler.now.advanced(by: interval), interval: interval,
                tolerance: scheduler.minimumTolerance, options: options
            ) { [weak self] in self?.timedOut(generation) }
            let previous: (any Cancellable)? = lock.withLock {
                guard timerGeneration == generation, case .subscribed = status else { return timer }
                let previous = self.timer
                self.timer = timer
                return previous
            }
            previous?.cancel()
        }

        private func timedOut(_ generation: Int) {
            let current = lock.withLock { timerGeneration == generation }
            guard current else { return }
            end(with: customError.map { .failure($0()) } ?? .finished, cancellingUpstream: true)
        }

        /// The stream ends: the upstream finished or failed, or timed out (then it is
        /// cancelled). The completion follows the values still waiting.
        private func end(with completion: Subscribers.Completion<Failure>, cancellingUpstream: Bool) {
            lock.lock()
            guard case .subscribed(let upstream) = status else {
                lock.unlock()
                return
            }
            status = .ending
            queue.append(.completion(completion))
            let timer = self.timer.take()
            lock.unlock()
            timer?.cancel()
            if cancellingUpstream { upstream.cancel() }
            scheduler.schedule(options: options) { self.deliverNext() }
        }

        /// A scheduled action: delivers the oldest event, or, when another thread is
        /// delivering, leaves it to that thread (see `ScheduledDelivery`).
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
                // The copy goes before the lock is taken again (see `Throttle`).
                _ = (consume event).deliver(to: consume downstream)
                lock.lock()
                if isCompletion { finished = self.downstream.take() }
            }
            queue.isDelivering = false
            lock.unlock()
            withExtendedLifetime(finished) {}
        }
    }
}
