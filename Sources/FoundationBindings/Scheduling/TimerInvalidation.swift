import Bindings
import Foundation

/// Cancels by invalidating a Foundation `Timer` that a run loop runs: what the run loop
/// scheduler's repeating action returns (wrapped in an `AnyCancellable`, as Combine's is)
/// and what `Timer.TimerPublisher.connect()` returns.
///
/// The first `cancel()` takes the timer out (so that the timer, its block and what the
/// block captures are released then, not when this object goes) and invalidates it;
/// later ones do nothing.
///
/// `@unchecked Sendable` although `Timer` is not `Sendable` (so a checked `Mutex` cannot
/// take a timer that its creator has already added to a run loop): `timer` is only read
/// and cleared with `lock` held, and the one thing done with it afterwards, outside the
/// lock, is `invalidate()`. That calls `CFRunLoopTimerInvalidate`, which takes the
/// timer's and the run loop's own locks, so it may run on any thread, also while the
/// timer fires on its run loop's thread; the `Timer` object keeps no Swift state that
/// `invalidate()` changes.
final class TimerInvalidation: Cancellable, @unchecked Sendable {
    private let lock = NSLock()
    /// The timer, until the first `cancel()`. Guarded by `lock`.
    private var timer: Timer?

    init(_ timer: Timer) {
        self.timer = timer
    }

    /// Invalidates the timer: it leaves its run loop, which releases it and its block.
    func cancel() {
        // Invalidated and released after unlocking: the block's captures may run user
        // code in their deinit.
        let timer = lock.withLock { self.timer.take() }
        timer?.invalidate()
    }
}
