import BindingsTestSupport
import Dispatch
import Foundation

/// A thread of its own that runs its run loop in the default mode, asleep until
/// something wakes it, for the tests of what runs on a run loop: the run loop
/// scheduler, `receive(on: runLoop)` and `Timer.publish`.
///
/// A dedicated thread, not the test's: Swift Testing runs tests on a shared pool, and a
/// pool thread's run loop would keep a test's timers for the next test that runs there.
/// The run loop sleeps until `.distantFuture` between events, so an action that runs
/// proves that whatever scheduled it woke the run loop.
///
/// `@unchecked Sendable`: `runLoop`, `thread` and `keepAlive` are set once, before
/// `init` returns (the start semaphore orders them); the run loop is only used from
/// other threads through `add(_:forMode:)`, which takes its lock; `keepAlive` is only
/// invalidated on the run loop's own thread.
final class RunLoopThread: @unchecked Sendable {
    /// The thread's run loop.
    let runLoop: RunLoop
    /// The thread, to compare with ``DeliveryContext/thread``.
    let thread: pthread_t
    /// A timer that never fires, so that the run loop has something to wait for (a run
    /// loop with nothing in its mode returns at once).
    private let keepAlive: Timer
    private let finished = DispatchSemaphore(value: 0)

    init(name: String) {
        let started = DispatchSemaphore(value: 0)
        let handOver = Locked<UncheckedBox<(RunLoop, pthread_t, Timer)>?>(nil)
        let finished = self.finished
        let thread = Thread {
            let runLoop = RunLoop.current
            let keepAlive = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
            runLoop.add(keepAlive, forMode: .default)
            handOver.value = UncheckedBox((runLoop, pthread_self(), keepAlive))
            started.signal()
            // Returns `false` once the mode is empty: after `stop()`.
            while runLoop.run(mode: .default, before: .distantFuture) {}
            finished.signal()
        }
        thread.name = name
        thread.start()
        started.wait()
        (runLoop, self.thread, keepAlive) = handOver.value!.value
    }

    /// Whether `context` is this thread.
    func isRunLoopThread(_ context: DeliveryContext) -> Bool {
        pthread_equal(context.thread, thread) != 0
    }

    /// Runs `body` on the run loop's thread, from a timer that is already due (adding one
    /// wakes the run loop), and returns once it has run.
    func sync(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        runLoop.add(Timer(fire: .distantPast, interval: 0, repeats: false) { _ in
            body()
            done.signal()
        }, forMode: .default)
        done.wait()
    }

    /// Ends the thread, and returns whether it ended within `timeout` seconds: it does
    /// not while a test left a timer on its run loop.
    @discardableResult
    func stop(timeout: Double = 5) -> Bool {
        let keepAlive = UncheckedBox(self.keepAlive)
        sync { keepAlive.value.invalidate() }
        return finished.wait(timeout: .now() + timeout) == .success
    }
}
