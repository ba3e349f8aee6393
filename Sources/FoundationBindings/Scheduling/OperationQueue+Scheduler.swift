import Bindings
import Dispatch
import Foundation

/// `OperationQueue` as a `Scheduler`, as in Combine: each action becomes an operation
/// on the queue; an action for later waits for its date, then becomes one.
///
/// ```swift
/// let queue = OperationQueue()
/// queue.maxConcurrentOperationCount = 1
/// let c = model.$status
///     .receive(on: queue)
///     .sink { print($0) }   // on one of the queue's threads, one at a time
/// ```
///
/// The queue decides where and how many actions run at once: a queue whose
/// `maxConcurrentOperationCount` is 1 runs them one at a time in the order they were
/// added; a concurrent queue may overlap them. `receive(on:)` keeps the upstream's
/// order either way, delivering one value at a time.
extension OperationQueue: Scheduler {
    /// The minimum tolerance: zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// The current time, `Date()`.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Adds an operation that runs `action` to the queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = HandedOverAction(action)
        addOperation { action.run() }
    }

    /// Waits until `date` (on a Dispatch wall-clock deadline, so no earlier), then adds
    /// an operation that runs `action` to the queue. The queue is kept until then.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = HandedOverAction(action)
        DispatchQueue.global().asyncAfter(wallDeadline: DispatchWallTime(date.date)) { [self] in
            addOperation { action.run() }
        }
    }

    /// Waits until `date`, then adds an operation that runs `action`; each time that
    /// operation has run, waits `interval` and adds the next one, until the returned
    /// cancellable is cancelled (or released).
    ///
    /// As in Combine, the interval is counted from the end of the previous run, so that
    /// the action never overlaps itself even on a concurrent queue. Cancelling cancels
    /// the operation waiting in the queue, if any, and releases the action; a run already
    /// started finishes.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let repetition = RepeatingOperation(queue: self, interval: interval.timeInterval, action: HandedOverAction(action))
        repetition.start(at: date.date)
        return AnyCancellable(repetition)
    }
}
