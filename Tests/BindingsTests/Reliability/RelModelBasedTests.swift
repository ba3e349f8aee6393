import BindingsTestSupport
import Testing
@testable import Bindings

/// The randomized model-based test of SPEC section 6's ordering promise: seeded sequences
/// of operations (sets, nested sets from callbacks, observer additions and removals, also
/// from callbacks, chain replacements, dependency switches) run against the library and
/// against ``RelModelReference``; after every operation each observer's received sequence,
/// each channel's observer count and each target's value must be the same in both, and
/// every attached observer's last value must be its target's current value.
///
/// A failure prints its seed; replay it with `REL_MODEL_SEED=<seed> swift test --filter
/// RelModelBased`. `REL_MODEL_RANDOM=<n>` runs `n` more seeds, drawn at random.
@Suite("Reliability: model-based")
struct RelModelBasedTests {
    /// The seeds CI runs, and the operations of each: 1...160, or 1...40 under a sanitizer
    /// (about ten times slower; the test is single-threaded, so a sanitizer adds memory
    /// checks to it but no new interleavings).
    static let fixedSeeds: [UInt64] = Array(1...160)
    static let sanitizedSeeds: [UInt64] = Array(1...40)
    static let operationsPerSeed = 250

    @Test
    func fixedSeedsMatchTheReferenceModel() {
        var seeds = RelEnvironment.sanitizer == "none" ? Self.fixedSeeds : Self.sanitizedSeeds
        if let one = RelEnvironment.variable("REL_MODEL_SEED").flatMap(UInt64.init) { seeds = [one] }
        if let count = RelEnvironment.variable("REL_MODEL_RANDOM").flatMap(Int.init) {
            var random = SystemRandomNumberGenerator()
            for _ in 0..<count { seeds.append(random.next() % 1_000_000_000) }
        }
        let deadline = RelDeadline(seconds: 0)
        var operations = 0
        var actions = 0
        var deliveries = 0
        var failed: [UInt64] = []
        for seed in seeds {
            let outcome = Self.check(seed: seed, count: Self.operationsPerSeed)
            operations += outcome.operations
            actions += outcome.actions
            deliveries += outcome.deliveries
            if let failure = outcome.failure {
                failed.append(seed)
                Issue.record("model-based test failed with seed \(seed) (replay: REL_MODEL_SEED=\(seed)): \(failure)")
            }
        }
        #expect(failed.isEmpty, "failing seeds: \(failed)")
        RelEnvironment.report(
            "model-based: \(seeds.count) seeds (\(seeds.first!)...\(seeds.last!)), \(operations) operations, "
                + "\(actions) actions with nested ones, \(deliveries) deliveries compared, in \(String(format3: deadline.elapsedSeconds)) s")
    }

    /// The same comparison with several threads at once. SPEC section 6 lets any thread
    /// use a model, one thread at a time: each of four threads checks seeds of its own
    /// against the reference, and hands about a third of its operations to a new thread
    /// that runs the operation while it waits, so that one model's observers are made,
    /// called, cancelled and released from several threads in turn. Meanwhile the
    /// library's shared state (the channel-creation locks, the hand-notification
    /// registry, the table of derived observations, dependency tracking) serves every
    /// thread at once. Each thread's run must still match the reference to the delivery.
    @Test
    func threadsCheckingSeedsAtOnceMatchTheReferenceModel() {
        let threads = 4
        // Seeds other than the single-threaded test's; fewer under a sanitizer.
        let seeds: [UInt64] = RelEnvironment.sanitizer == "none" ? Array(1001...1080) : Array(1001...1020)
        let failures = Locked<[String]>([])
        // Per thread: operations, deliveries compared, operations handed to another thread.
        let totals = Locked<[Int]>([0, 0, 0])
        let deadline = RelDeadline(seconds: 0)
        runConcurrently(threads: threads) { thread in
            var random = RelRandom(seed: 0xA11 &+ UInt64(thread))
            var counts = [0, 0, 0]
            for seed in seeds where seed % UInt64(threads) == UInt64(thread) {
                let outcome = Self.check(seed: seed, count: Self.operationsPerSeed) { driver, operation in
                    guard random.below(3) == 0 else { return driver.run(operation) }
                    counts[2] += 1
                    // This thread does not touch the driver until the other one has ended
                    // (`pthread_join` orders the two).
                    let job = UncheckedBox((driver, operation))
                    runOnAnotherThread { job.value.0.run(job.value.1) }
                }
                counts[0] += outcome.operations
                counts[1] += outcome.deliveries
                if let failure = outcome.failure {
                    failures.withLock {
                        $0.append("seed \(seed) on thread \(thread) (replay single-threaded: REL_MODEL_SEED=\(seed)): \(failure)")
                    }
                }
            }
            totals.withLock { for index in 0..<3 { $0[index] += counts[index] } }
        }
        let counts = totals.value
        #expect(failures.value.isEmpty, "\(failures.value)")
        #expect(counts[2] > 0)
        RelEnvironment.report(
            "model-based, \(threads) threads: \(seeds.count) seeds (\(seeds.first!)...\(seeds.last!)), \(counts[0]) operations "
                + "(\(counts[2]) run by a thread they were handed to), \(counts[1]) deliveries compared, "
                + "in \(String(format3: deadline.elapsedSeconds)) s")
    }

    /// The generator is not degenerate: the fixed seeds exercise every kind of operation,
    /// reactions fire, and removals and additions happen from inside callbacks.
    @Test func generatorCoversEveryKindOfOperation() {
        var sets: Set<String> = []
        var apis: Set<String> = []
        var reactions: Set<String> = []
        for seed in Self.fixedSeeds.prefix(20) {
            for operation in RelModelGenerator.operations(seed: seed, count: Self.operationsPerSeed) {
                switch operation {
                case .set(_, let what): sets.insert(what.description)
                case .add(let spec):
                    apis.insert(spec.api.description)
                    if let reaction = spec.reaction {
                        switch reaction.action {
                        case .set: reactions.insert("set")
                        case .update: reactions.insert("update")
                        case .remove: reactions.insert("remove")
                        case .add: reactions.insert("add")
                        }
                    }
                default: break
                }
            }
        }
        #expect(sets.count == RelModelSet.allCases.count)
        #expect(apis.count == 10)
        #expect(reactions == ["set", "update", "remove", "add"])
    }

    /// The comparison can fail: a reference that skips one delivery is caught.
    @Test func aWrongReferenceIsCaught() {
        let outcome = Self.check(seed: 7, count: 60, library: RelModelSkippingReference())
        #expect(outcome.failure != nil)
    }

    struct Outcome {
        var operations = 0
        var actions = 0
        var deliveries = 0
        var failure: String?
    }

    /// Runs the seed's operations on the library (through `perform`, which may run one
    /// on another thread, and returns when it has run) and on the reference, comparing
    /// after each.
    static func check(
        seed: UInt64, count: Int, library: (any RelModelSystem)? = nil,
        perform: (RelModelDriver, RelModelAction) -> Void = { $0.run($1) }
    ) -> Outcome {
        let operations = RelModelGenerator.operations(seed: seed, count: count)
        let actual = RelModelDriver(system: library ?? RelModelLibrary())
        let expected = RelModelDriver(system: RelModelReference())
        var outcome = Outcome()
        let comparator = Comparator()
        for (index, operation) in operations.enumerated() {
            perform(actual, operation)
            expected.run(operation)
            outcome.operations += 1
            if let difference = comparator.compare(actual, expected) {
                outcome.failure = "after operation \(index) (\(operation)): \(difference)"
                break
            }
        }
        outcome.actions = expected.actions
        outcome.deliveries = expected.logs.values.reduce(0) { $0 + $1.count }
        return outcome
    }

    /// Compares the two runs; only what was received since the last comparison is read
    /// again, so that comparing after every operation stays cheap.
    final class Comparator {
        private var compared: [Int: Int] = [:]

        func compare(_ actual: RelModelDriver, _ expected: RelModelDriver) -> String? {
            if actual.live != expected.live { return "attached observers \(actual.live), expected \(expected.live)" }
            // Only the observers that received something in either run can differ now.
            for id in actual.takeTouched().union(expected.takeTouched()) {
                let want = expected.logs[id] ?? []
                let got = actual.logs[id] ?? []
                let from = compared[id] ?? 0
                if got.count != want.count || got[from...] != want[from...] {
                    return "observer \(id) (\(expected.specs[id]!)) received \(got.suffix(12)), expected \(want.suffix(12))"
                }
                compared[id] = want.count
            }
            if actual.logs.count != expected.logs.count { return "observers differ: \(actual.logs.keys.sorted())" }
            for id in expected.live {
                let target = expected.specs[id]!.target
                let now = actual.system.current(target)
                if now != expected.system.current(target) {
                    return "\(target) is \(now), the reference says \(expected.system.current(target))"
                }
                // Never stale: the last value an attached observer received is the current one.
                if let last = actual.logs[id]?.last, last != now {
                    return "observer \(id) (\(expected.specs[id]!)) ended stale: last received \(last), \(target) is \(now)"
                }
            }
            let counts = actual.system.observerCounts()
            let expectedCounts = expected.system.observerCounts()
            if counts != expectedCounts {
                let differing = RelModelGenerator.channelNames.indices.filter { counts[$0] != expectedCounts[$0] }
                    .map { "\(RelModelGenerator.channelNames[$0]): \(counts[$0]) (expected \(expectedCounts[$0]))" }
                return "observer counts differ (a leaked or lost registration): \(differing)"
            }
            return nil
        }
    }
}

/// A deliberately wrong reference (it drops every fifth delivery), to prove that the
/// comparison catches a difference.
final class RelModelSkippingReference: RelModelSystem {
    private let reference = RelModelReference()
    private var deliveries = 0

    func set(model: Int, _ what: RelModelSet, value: Int) { reference.set(model: model, what, value: value) }
    func update(_ value: Int) { reference.update(value) }
    func add(id: Int, _ spec: RelModelObserverSpec, receive: @escaping (Int) -> Void) {
        reference.add(id: id, spec) { [unowned self] value in
            deliveries += 1
            if deliveries % 5 != 0 { receive(value) }
        }
    }
    func remove(id: Int) { reference.remove(id: id) }
    func current(_ target: RelModelTarget) -> Int { reference.current(target) }
    func observerCounts() -> [Int] { reference.observerCounts() }
}
