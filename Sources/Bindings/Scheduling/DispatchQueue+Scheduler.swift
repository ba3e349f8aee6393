import Dispatch

/// `DispatchQueue` as a ``Scheduler``, as in Combine: actions run on the queue, with
/// `async`, `asyncAfter`, or a timer source when they repeat.
///
/// ```swift
/// let c = model.$status
///     .receive(on: DispatchQueue.main)
///     .sink { label.text = $0 }
/// ```
///
/// A serial queue runs actions in the order they were scheduled, so operators that
/// deliver on it (``Publisher/receive(on:options:)``) keep their order.
extension DispatchQueue: Scheduler {
    /// The minimum tolerance: zero (Dispatch picks its own leeway from the tolerance).
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// The current time, `DispatchTime.now()`.
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    /// Runs `action` on the queue with `async`, honouring the options' group, QoS and
    /// flags.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = ScheduledAction(action)
        let options = options ?? SchedulerOptions()
        async(group: options.group, qos: options.qos, flags: options.flags) { action.run() }
    }

    /// Runs `action` on the queue at `date` with `asyncAfter`, honouring the options'
    /// QoS and flags (and group, which is entered until the action has run).
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = ScheduledAction(action)
        let options = options ?? SchedulerOptions()
        let group = options.group
        group?.enter()
        asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) {
            action.run()
            group?.leave()
        }
    }

    /// Runs `action` on the queue at `date`, then every `interval`, with a timer
    /// source, until the returned cancellable is cancelled (or released).
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let action = ScheduledAction(action)
        let options = options ?? SchedulerOptions()
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(qos: options.qos, flags: options.flags) { action.run() }
        timer.schedule(deadline: date.dispatchTime, repeating: interval.timeInterval, leeway: tolerance.timeInterval)
        timer.resume()
        // Cancelling a timer source also releases its handler, and with it the action.
        return AnyCancellable.unchecked({ timer.cancel() })
    }
}
