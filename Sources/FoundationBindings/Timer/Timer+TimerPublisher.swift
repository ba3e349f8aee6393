import Bindings
import Foundation

extension Timer {
    /// Combine's publisher of a Foundation timer's ticks: a connectable publisher that
    /// emits the current date at each tick of a `Timer` on a run loop, once connected.
    ///
    /// Create one with `Timer.publish(every:tolerance:on:in:options:)`. Nothing is
    /// emitted before ``connect()``, which starts a repeating timer on the run loop, in
    /// the mode; every subscriber then receives its ticks. Cancelling the connection
    /// invalidates the timer. `autoconnect()` connects for the first subscriber and
    /// cancels when the last one leaves:
    ///
    /// ```swift
    /// let clock = Timer.publish(every: 1, on: .main, in: .common)
    ///     .autoconnect()
    ///     .sink { date in print(date) }   // a date a second, on the main run loop
    /// ```
    ///
    /// **Thread:** ticks arrive on the run loop's thread, while it runs in `mode` (or in
    /// any mode, for `.common`). Nobody runs a run loop for you: on Linux, the main run
    /// loop ticks only if the main thread runs it (`RunLoop.main.run()`). For a timer on
    /// a queue, use `DispatchQueue.reactive.timer(every:)` (`Publishers.Timer`).
    ///
    /// **Demand:** each subscriber has its own; a tick that comes while a subscriber has
    /// no unmet demand is dropped for it, as in Combine. The publisher never finishes.
    ///
    /// **Connections:** each ``connect()`` starts a timer of its own, whose first tick
    /// comes one interval later. As in Combine, the connection stops only when cancelled:
    /// releasing it leaves the timer running. Subscribers stay subscribed when it is
    /// cancelled, and receive the ticks of a later connection.
    public final class TimerPublisher: ConnectablePublisher {
        /// The date of each tick.
        public typealias Output = Date
        /// The publisher cannot fail.
        public typealias Failure = Never

        /// The time between two ticks, in seconds.
        public let interval: TimeInterval
        /// How late a tick may come, in seconds, or `nil` for the timer's default.
        public let tolerance: TimeInterval?
        /// The run loop the timer runs on.
        public let runLoop: RunLoop
        /// The run loop mode the timer runs in.
        public let mode: RunLoop.Mode
        /// Options for the run loop scheduler (there are none).
        public let options: RunLoop.SchedulerOptions?

        /// The subscribers that have not cancelled, which the timers' blocks hold.
        private let subscribers = TimerSubscribers()

        /// Creates a publisher of the ticks of a timer that fires every `interval` seconds
        /// on `runLoop`, in `mode`, once connected.
        public init(
            interval: TimeInterval,
            tolerance: TimeInterval? = nil,
            runLoop: RunLoop,
            mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches `subscriber`: it receives the ticks of every connection from now until
        /// it cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = EventSubscription(downstream: subscriber, policy: .drop)
            subscriber.receive(subscription: subscription)
            guard subscription.isActive else { return }
            let id = ObjectIdentifier(subscription)
            subscribers.add(subscription, id: id)
            // Weak: a subscriber that never cancels does not keep the list alive.
            subscription.attach(stop: { [weak subscribers] in subscribers?.remove(id) })
        }

        /// Starts a repeating timer on the run loop, in the mode, whose first tick comes
        /// one interval from now; cancel the result to invalidate it.
        public func connect() -> any Cancellable {
            // A Foundation timer with an interval of zero would fire once only.
            let seconds = Swift.max(interval, 0.000_1)
            let subscribers = self.subscribers
            let timer = Timer(fire: Date(timeIntervalSinceNow: seconds), interval: seconds, repeats: true) { _ in
                subscribers.send(Date())
            }
            if let tolerance { timer.tolerance = tolerance }
            runLoop.add(timer, forMode: mode)
            return TimerInvalidation(timer)
        }
    }

    /// A connectable publisher that emits the current date every `interval` seconds on
    /// `runLoop`, in `mode`, once connected, as in Combine (see ``TimerPublisher``).
    ///
    /// ```swift
    /// let ticks = Timer.publish(every: 0.5, on: .current, in: .default)
    /// let c = ticks.sink { print($0) }
    /// let connection = ticks.connect()   // ticks from now on, until cancelled
    /// ```
    ///
    /// `tolerance` is how late a tick may come (`nil`: the timer's default); `options`
    /// are the run loop scheduler's, of which there are none.
    public static func publish(
        every interval: TimeInterval,
        tolerance: TimeInterval? = nil,
        on runLoop: RunLoop,
        in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }
}
