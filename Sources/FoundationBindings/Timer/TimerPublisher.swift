import Bindings
import Dispatch

extension DispatchQueue: ReactiveExtensionProvider {}

extension Publishers {
    /// A publisher that emits the scheduler's current time at a fixed interval, on the
    /// scheduler, until cancelled: the scheduler-based counterpart of Combine's
    /// `Timer.publish(every:on:in:).autoconnect()`, which needs a running `RunLoop`.
    ///
    /// Create one with ``Reactive/timer(every:tolerance:options:)`` on a
    /// scheduler (`DispatchQueue.main.reactive.timer(every: .seconds(1))`), or with
    /// ``init(interval:tolerance:scheduler:options:)`` for any ``Scheduler``. Each
    /// subscriber gets its own timer, started when it subscribes: the first tick comes
    /// one interval later. The publisher never finishes.
    ///
    /// **Thread:** ticks arrive on the scheduler (for a `DispatchQueue`, on that
    /// queue), one at a time.
    ///
    /// **Demand:** a tick that fires while the subscriber has no unmet demand is
    /// dropped, as in Combine; the timer keeps its rhythm.
    ///
    /// **Cancel:** cancelling cancels the scheduler's repeating action (for a
    /// `DispatchQueue`, its timer source), which releases the subscription.
    public struct Timer<Context: Scheduler>: Publisher {
        /// The scheduler's time at each tick.
        public typealias Output = Context.SchedulerTimeType
        /// The publisher cannot fail.
        public typealias Failure = Never

        /// The time between two ticks.
        public let interval: Context.SchedulerTimeType.Stride
        /// How late a tick may fire, as the scheduler understands it.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// The scheduler the ticks fire on.
        public let scheduler: Context
        /// Options for the scheduler.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that emits `scheduler.now` every `interval`, on
        /// `scheduler`; `tolerance` defaults to the scheduler's minimum.
        public init(
            interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride? = nil,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance ?? scheduler.minimumTolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Schedules a repeating action on the scheduler for the subscriber, cancelled when it cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = EventSubscription(downstream: subscriber, policy: .drop)
            subscriber.receive(subscription: subscription)
            guard subscription.isActive else { return }
            let scheduler = self.scheduler
            let repeating = scheduler.schedule(
                after: scheduler.now.advanced(by: interval),
                interval: interval,
                tolerance: tolerance,
                options: options
            ) {
                subscription.send(scheduler.now)
            }
            subscription.attach(stop: { repeating.cancel() })
        }
    }
}

extension Reactive where Base: Scheduler {
    /// A publisher that emits this scheduler's current time every `interval`, on this
    /// scheduler, from one interval after subscribing until cancelled.
    ///
    /// Ticks arrive on the scheduler; one that fires without demand is dropped (see
    /// ``Publishers/Timer``).
    ///
    /// ```swift
    /// let c = DispatchQueue.main.reactive.timer(every: .seconds(1))
    ///     .sink { _ in clock.refresh() }
    /// ```
    public func timer(
        every interval: Base.SchedulerTimeType.Stride,
        tolerance: Base.SchedulerTimeType.Stride? = nil,
        options: Base.SchedulerOptions? = nil
    ) -> Publishers.Timer<Base> {
        Publishers.Timer(interval: interval, tolerance: tolerance, scheduler: base, options: options)
    }
}
