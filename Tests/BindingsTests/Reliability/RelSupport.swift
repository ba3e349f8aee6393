import Dispatch
import Synchronization
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
