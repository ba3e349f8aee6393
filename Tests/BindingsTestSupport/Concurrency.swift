import Dispatch
import Foundation
import Synchronization

/// Runs `body(index)` for each index in `0..<threads`, each on a new thread, and returns
/// when all have finished. Real threads (pthreads, not a pool), so that all of them run
/// at once even on two cores; they wait at a start line until all have started, so that
/// the bodies really overlap.
package func runConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = Counter()
    var handles: [pthread_t] = []
    for index in 0..<threads {
        let job = Unmanaged.passRetained(ThreadJob {
            ready.increment()
            while ready.value < threads { sched_yield() }
            body(index)
        }).toOpaque()
        handles.append(startThread(job))
    }
    for handle in handles { pthread_join(handle, nil) }
}

/// Runs each of `bodies` on a thread of its own, released together once all have started,
/// and returns when all have finished.
package func runConcurrently(_ bodies: [@Sendable () -> Void]) {
    runConcurrently(threads: bodies.count) { bodies[$0]() }
}

/// Runs `body` on a new thread and waits for it. A thread of its own, since one from a
/// pool could wait for the test threads that `body` unblocks.
package func runOnAnotherThread(_ body: @escaping @Sendable () -> Void) {
    runConcurrently(threads: 1) { _ in body() }
}

/// Polls `condition` every millisecond until it holds or `timeout` seconds pass; returns
/// whether it holds. For conditions that no callback reports (something released by
/// Dispatch's own threads); a ``TestRecorder`` waits for its events itself.
package func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + timeout
    while !condition() {
        if DispatchTime.now() > deadline { return false }
        usleep(1000)
    }
    return true
}

/// Waits until the main queue has run everything enqueued before this call.
@MainActor
package func drainMainQueue() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { done.resume() }
    }
}

/// Counts calls that overlap, to prove that a subscriber is never called concurrently
/// without relying on the thread sanitizer alone.
package final class OverlapDetector: Sendable {
    private let inside = Atomic<Int>(0)
    private let overlapCount = Atomic<Int>(0)

    package init() {}

    package var overlaps: Int { overlapCount.load(ordering: .relaxed) }

    /// Runs `body` as one call to watch, kept open for about `spins` more atomic loads so
    /// that overlapping calls are caught even on a busy machine.
    package func watch(spins limit: Int = 200, _ body: () -> Void) {
        if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
            overlapCount.add(1, ordering: .relaxed)
        }
        body()
        var spins = 0
        while spins < limit { spins = inside.load(ordering: .relaxed) > 1 ? limit : spins + 1 }
        inside.subtract(1, ordering: .acquiringAndReleasing)
    }
}

/// The body of one thread of ``runConcurrently(threads:_:)``.
private final class ThreadJob: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Starts a joinable thread that runs the retained ``ThreadJob`` at `job` and releases it.
private func startThread(_ job: UnsafeMutableRawPointer) -> pthread_t {
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let status = pthread_create(&thread, nil, { raw in
        #if canImport(Darwin)
        let job = Unmanaged<ThreadJob>.fromOpaque(raw).takeRetainedValue()
        #else
        let job = Unmanaged<ThreadJob>.fromOpaque(raw!).takeRetainedValue()
        #endif
        job.body()
        return nil
    }, job)
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Darwin)
    return thread!
    #else
    return thread
    #endif
}
