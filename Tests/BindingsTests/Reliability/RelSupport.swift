import Dispatch
import Synchronization
import Testing
@testable import Bindings
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Shared helpers of the reliability suite (SPEC sections 6 and 7). Every type here starts
// with `Rel`, so that `swift test --filter Rel` selects the suite and nothing clashes with
// the other suites' helpers.

/// Runs `body` on `count` new threads (real pthreads, not a pool: the stress tests need
/// eight threads at once even on two cores) and returns when all have finished.
enum RelThreads {
    private final class Job: @unchecked Sendable {
        // `@unchecked Sendable`: immutable after init; handed to exactly one thread.
        let body: @Sendable (Int) -> Void
        let index: Int
        init(body: @escaping @Sendable (Int) -> Void, index: Int) {
            self.body = body
            self.index = index
        }
    }

    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        #if canImport(Darwin)
        var threads: [pthread_t?] = []
        #else
        var threads: [pthread_t] = []
        #endif
        for index in 0..<count {
            let job = Unmanaged.passRetained(Job(body: body, index: index)).toOpaque()
            #if canImport(Darwin)
            var thread: pthread_t?
            #else
            var thread = pthread_t()
            #endif
            let status = pthread_create(&thread, nil, { raw in
                #if canImport(Darwin)
                let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
                #else
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                #endif
                job.body(job.index)
                return nil
            }, job)
            precondition(status == 0, "pthread_create failed: \(status)")
            threads.append(thread)
        }
        for thread in threads {
            #if canImport(Darwin)
            pthread_join(thread!, nil)
            #else
            pthread_join(thread, nil)
            #endif
        }
    }
}

/// A deterministic random number generator (SplitMix64), so that a seed replays a run.
struct RelRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }

    /// `true` with the given chance in percent.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// Counts live objects of one kind (per test, so that tests running in parallel do not
/// disturb each other's counts).
final class RelCounter: Sendable {
    let created = Atomic<Int>(0)
    let destroyed = Atomic<Int>(0)

    var live: Int { created.load(ordering: .acquiring) - destroyed.load(ordering: .acquiring) }
}

/// An object captured by a closure under test: a weak reference to it tells whether the
/// closure was released, and its counter tells how many such objects are still alive.
final class RelCanary: Sendable {
    let counter: RelCounter?

    init(_ counter: RelCounter? = nil) {
        self.counter = counter
        counter?.created.add(1, ordering: .relaxed)
    }

    deinit { counter?.destroyed.add(1, ordering: .releasing) }

    /// Something to call from a closure, so that the closure really captures the canary.
    func touch() {}
}

/// A value guarded by a lock, for test bookkeeping shared between threads.
final class RelLocked<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `value` is only touched with `lock` held.
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    var snapshot: Value { withLock { $0 } }

    /// Appends `element`, giving up the caller's reference: once this returns, the
    /// collection holds the only one, so that another thread that takes the element out
    /// and drops it really releases it. (A caller that appended a copy and still held its
    /// own until it returned made "released on another thread" happen later, on the
    /// caller, at a moment the test did not know.)
    func append<Element>(_ element: consuming Element) where Value == [Element] {
        lock.lock()
        value.append(element)
        lock.unlock()
    }
}

/// Facts about the running test binary, printed with the figures of each run.
enum RelEnvironment {
    /// The sanitizer the binary was built with, found by looking for its runtime.
    static let sanitizer: String = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return "unknown" }
        defer { dlclose(handle) }
        if dlsym(handle, "__tsan_init") != nil { return "thread" }
        if dlsym(handle, "__asan_init") != nil { return "address" }
        return "none"
    }()

    /// `debug` or `release`.
    static var configuration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    /// An environment variable, if set.
    static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Prints one line of figures, tagged so that `grep RelFigures` collects them from a log.
    static func report(_ line: String) {
        print("RelFigures [\(configuration), sanitizer: \(sanitizer)] \(line)")
    }
}

/// A time cap for a stress loop: runs stop at a fixed operation count or when the cap is
/// reached, whichever comes first (sanitizers slow everything ~10x; the cap bounds that).
struct RelDeadline: Sendable {
    private let end: ContinuousClock.Instant
    let start: ContinuousClock.Instant

    init(seconds: Double) {
        start = .now
        end = start + .milliseconds(Int(seconds * 1_000))
    }

    var passed: Bool { ContinuousClock.now >= end }

    var elapsedSeconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// Stops the process with a message if a test has not finished in time: a deadlock must
/// fail the run, not hang it.
final class RelWatchdog: Sendable {
    private let finished = Atomic<Bool>(false)

    init(seconds: Int, what: String) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { [self] in
            if !finished.load(ordering: .acquiring) {
                fatalError("RelWatchdog: \(what) did not finish within \(seconds) s: a deadlock")
            }
        }
    }

    func finish() { finished.store(true, ordering: .releasing) }
}

/// The text a process stopped by an exit test wrote to standard error.
func relStandardError(_ result: ExitTest.Result?) -> String {
    guard let bytes = result?.standardErrorContent else { return "" }
    return String(decoding: bytes, as: UTF8.self)
}
