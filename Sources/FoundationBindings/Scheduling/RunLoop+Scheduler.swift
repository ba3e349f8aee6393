import Bindings
import Foundation

/// `RunLoop` as a `Scheduler`, as in Combine: actions run on the run loop's thread,
/// in its default mode, as blocks (`perform`) or as Foundation timers when they wait.
///
/// ```swift
/// let c = model.$status
///     .receive(on: RunLoop.main)
///     .sink { label.text = $0 }
/// ```
///
/// Actions run only while the run loop runs in the default mode (`run()`,
/// `run(until:)`, `run(mode: .default, before:)`) on its thread: a run loop nobody runs
/// keeps them. On Linux the main run loop runs only if the main thread runs it
/// (`RunLoop.main.run()`); a program that parks its main thread in `dispatchMain()`
/// should deliver on `DispatchQueue.main` instead.
///
/// Immediate actions run in the order they were scheduled, so operators that deliver on
/// a run loop (`receive(on:)`) keep their order. Scheduling may be done from any
/// thread: the run loop is woken, so an action scheduled from another thread runs at
/// once, not at the run loop's next unrelated event.
///
/// **Memory on Linux:** Foundation's `Timer` made with a block loses 40 bytes when it
/// ends (swift-corelibs-foundation with Swift 6.3.1: AddressSanitizer reports each one
/// as a direct leak, in a ten-line program with no Bindings code). Waking the run loop
/// and waiting for a date both take such a timer, so each action scheduled here costs 40
/// bytes for the life of the process: a stream of values delivered with
/// `receive(on: runLoop)` grows by that much a value. For a high rate of values, deliver
/// on a `DispatchQueue`.
extension RunLoop: Scheduler {
    /// The minimum tolerance: zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// The current time, `Date()`.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Runs `action` on the run loop's thread, in the default mode, after the actions
    /// scheduled before it (`perform(inModes:block:)`), and wakes the run loop.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = HandedOverAction(action)
        perform(inModes: [.default]) { action.run() }
        wakeUp()
    }

    /// Runs `action` on the run loop's thread at `date` (no earlier), with a one-shot
    /// Foundation timer in the default mode.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = HandedOverAction(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in action.run() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
    }

    /// Runs `action` on the run loop's thread at `date`, then every `interval`, with a
    /// repeating Foundation timer in the default mode, until the returned cancellable is
    /// cancelled (or released), which invalidates the timer.
    ///
    /// As with Foundation's timers, a firing the run loop was too busy to make is
    /// skipped, not made up for; an interval of zero or less means 0.1 milliseconds.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        // A Foundation timer with an interval of zero would fire once only.
        let seconds = max(interval.timeInterval, 0.000_1)
        let action = HandedOverAction(action)
        let timer = Timer(fire: date.date, interval: seconds, repeats: true) { _ in action.run() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        return AnyCancellable(TimerInvalidation(timer))
    }

    /// Wakes the run loop if it sleeps, so that a block just performed runs now.
    ///
    /// `perform(inModes:block:)` only enqueues the block (`CFRunLoopPerformBlock` does not
    /// wake the run loop), and Foundation offers no `CFRunLoopWakeUp` on Linux; adding a
    /// timer that is already due does wake it (its timer descriptor fires), and each pass
    /// of the run loop runs the blocks waiting for the mode.
    private func wakeUp() {
        add(Timer(fire: .distantPast, interval: 0, repeats: false) { _ in }, forMode: .default)
    }
}
