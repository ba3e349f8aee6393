/// A scheduler for performing synchronous actions, as in Combine.
///
/// It runs every action at once, on the calling thread, ignoring any date, interval and
/// tolerance. It is useful in tests and wherever an API wants a scheduler but the work
/// should stay synchronous.
///
/// ```swift
/// let c = subject.receive(on: ImmediateScheduler.shared).sink { print($0) }
/// ```
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The options accepted by the immediate scheduler: there are none.
    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler.
    public static let shared = ImmediateScheduler()

    private init() {}

    /// The immediate scheduler's notion of now: a time that never advances.
    public var now: SchedulerTimeType { SchedulerTimeType() }

    /// The minimum tolerance allowed by the immediate scheduler: zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Performs the action at once, on the calling thread.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Performs the action at once, on the calling thread; `date` is ignored.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Performs the action once, at once, on the calling thread; `date` and `interval`
    /// are ignored, and the returned cancellable does nothing.
    @discardableResult
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}
