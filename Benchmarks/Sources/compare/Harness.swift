import CMallocCounter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where every subscriber of every benchmark adds what it receives; printed at the end so
/// that no delivery can be optimised away.
final class Counter {
    // `@exclusivity(unchecked)`: only the benchmark's thread touches it, and the benchmarks
    // measure the libraries, not the dynamic exclusivity check of the subscriber's body.
    @exclusivity(unchecked) var total = 0
}

/// Nanoseconds on the monotonic clock.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Runs `body` and returns how long it took, in nanoseconds.
@inline(__always)
func timed(_ body: () -> Void) -> UInt64 {
    let start = monotonicNanoseconds()
    body()
    return monotonicNanoseconds() &- start
}

/// Each side's round: this many timed batches, each of about this many nanoseconds.
let batchesPerRound = 5
let batchNanoseconds: UInt64 = 2_000_000

/// Runs `count` operations and returns the nanoseconds of the timed part (a side may do
/// untimed set-up between batches, such as re-subscribing what it cancelled).
typealias Run = (_ count: Int) -> UInt64

/// One contestant of a comparison: a library, or one size of a scaling measurement.
final class Side {
    let label: String
    let run: Run
    /// What one timed operation stands for: 100 for a set delivered to 100 subscribers,
    /// when the figure wanted is the cost per subscriber.
    let unitsPerOperation: Double
    /// Operations per round, found by calibration.
    var count = 0
    /// The best (lowest) nanoseconds per unit over the rounds.
    var best = Double.infinity

    init(_ label: String, unitsPerOperation: Double = 1, _ run: @escaping Run) {
        self.label = label
        self.run = run
        self.unitsPerOperation = unitsPerOperation
    }

    /// Warms up and picks an operation count that takes about `target` nanoseconds.
    func calibrate(target: UInt64) {
        // One untimed call first: a first call that is slow for reasons of its own (the
        // runtime instantiating generic metadata, a key path built on first use) would
        // otherwise pick a count of 1, and the figure would be one operation's timer
        // overhead and cold caches, not the operation's cost.
        _ = run(1)
        var count = 1
        var elapsed = run(count)
        while elapsed < target / 8, count < 1 << 30 {
            count *= 4
            elapsed = run(count)
        }
        self.count = max(1, Int(Double(count) * Double(target) / Double(max(elapsed, 1))))
    }

    /// One round: `batches` timed batches of `count` operations; keeps the best batch.
    /// Short batches, many of them, so that a batch that the scheduler interrupted (the
    /// machine is shared) does not hide the undisturbed cost.
    func measure(batches: Int) {
        for _ in 0..<batches {
            let elapsed = run(count)
            best = min(best, Double(elapsed) / Double(count) / unitsPerOperation)
        }
    }
}

/// Sides measured against each other: calibrated, then measured in interleaved rounds
/// (A B, then B A, ...), so that a slow patch of the machine hits both. The sides are
/// made (subscribers set up) only if the comparison is selected.
final class Comparison {
    let key: String
    private let makeSides: () -> [Side]
    private(set) var sides: [Side] = []

    init(_ key: String, _ makeSides: @escaping () -> [Side]) {
        self.key = key
        self.makeSides = makeSides
    }

    /// Sets up the sides.
    func prepare() { sides = makeSides() }

    /// The best nanoseconds per unit of side `index`, or infinity if it was not measured.
    subscript(_ index: Int) -> Double { index < sides.count ? sides[index].best : .infinity }
}

/// Measures every comparison: calibrates each side, then runs `rounds` rounds in which
/// each comparison's sides take turns, alternating which goes first, each turn being
/// `batches` batches of about `targetNanoseconds`.
func measure(_ comparisons: [Comparison], rounds: Int, batches: Int, targetNanoseconds: UInt64, progress: (String) -> Void) {
    for comparison in comparisons {
        comparison.prepare()
        for side in comparison.sides { side.calibrate(target: targetNanoseconds) }
    }
    for round in 0..<rounds {
        progress("round \(round + 1)/\(rounds)")
        for comparison in comparisons {
            let order = round % 2 == 0 ? comparison.sides : comparison.sides.reversed()
            for side in order { side.measure(batches: batches) }
        }
    }
}

/// A small deterministic generator (SplitMix64), so that runs pick the same "random"
/// subscriptions to cancel.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

/// Which subscriptions a cancellation benchmark cancels: batches of `batchSize`, either one
/// random subscription in each of `batchSize` distinct models picked at random among
/// `models`, or, with a single model, `batchSize` distinct random subscriptions of it.
struct CancelPlan {
    let models: Int
    let perModel: Int
    let batchSize: Int
    private var random = SplitMix64(state: 0x5EED)

    init(models: Int, perModel: Int, batchSize: Int) {
        precondition(batchSize <= (models == 1 ? perModel : models))
        self.models = models
        self.perModel = perModel
        self.batchSize = batchSize
    }

    /// The next batch, as (model, index) pairs, in the order to cancel them.
    mutating func nextBatch() -> [(model: Int, index: Int)] {
        if models > 1 {
            return spread(batchSize, over: models).map { ($0, random.next(below: perModel)) }
        }
        return spread(batchSize, over: perModel).map { (0, $0) }
    }

    /// `count` distinct numbers below `bound`, spread over the whole range: a random start
    /// and a stride coprime with `bound`.
    private mutating func spread(_ count: Int, over bound: Int) -> [Int] {
        let stride = bound % 7919 == 0 ? 7907 : 7919
        let start = random.next(below: bound)
        return (0..<count).map { (start + $0 * stride) % bound }
    }
}

/// The heap allocations `body` makes on this thread: how many, and the requested sizes
/// of the first few (see CMallocCounter).
func countAllocations(_ body: () -> Void) -> (count: Int, sizes: [Int]) {
    bench_allocations_start()
    body()
    let count = Int(bench_allocations_stop())
    let sizes = (0..<min(count, Int(BENCH_RECORDED_SIZES))).map { Int(bench_allocation_size(UInt64($0))) }
    return (count, sizes)
}

/// Heap allocations per operation of `run`, over `count` operations after a warm-up (a
/// delivery path: the side's set-up is made before, untimed and uncounted).
func allocationsPerOperation(_ run: Run, count: Int) -> Double {
    _ = run(1000)
    return Double(countAllocations { _ = run(count) }.count) / Double(count)
}

/// Starts a thread that does nothing and waits for it to end: from then on the process
/// counts as multi-threaded for glibc, as every application with a Dispatch queue does.
func startAndJoinAThread() {
    #if canImport(Glibc)
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { _ in nil }, nil)
    precondition(started == 0, "compare: could not start a thread (error \(started))")
    pthread_join(thread, nil)
    #endif
}
