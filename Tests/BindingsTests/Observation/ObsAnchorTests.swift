import BindingsTestSupport
import Testing
@testable import Bindings

// Hand notification's side table: an `ObservationAnchor` ends a model's observations
// when the model deinitialises, and old values kept by `willChangeValue(for:)` never
// outlive their object nor pass to a new object at the same address.

/// A model with nothing `@Observed`, anchored.
final class ObsAnchoredModel: KeyValueObservable {
    let observationAnchor = ObservationAnchor()
    var plain = 1
    var plainDescription: String { "plain \(plain)" }
}

/// Storage notified by hand, anchored, with a key path declared to depend on it.
private final class AnchoredThermometer: KeyValueObservable {
    let observationAnchor = ObservationAnchor()
    private var storage = 20
    var celsius: Int {
        get { storage }
        set {
            willChangeValue(for: \.celsius)
            storage = newValue
            didChangeValue(for: \.celsius)
        }
    }
    var reading: String { "\(celsius)°" }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        key == \AnchoredThermometer.reading ? [\AnchoredThermometer.celsius] : []
    }
}

/// An `@Observed` property announced by hand, without an anchor.
private final class Status: KeyValueObservable {
    @Observed var status: String
    init(_ status: String) { self.status = status }
}

/// The same, anchored.
private final class AnchoredStatus: KeyValueObservable {
    let observationAnchor = ObservationAnchor()
    @Observed var status: String
    init(_ status: String) { self.status = status }
}

/// Makes the hand-notification table purge: it does so every 64 entries made.
private func purgeTheTable() {
    let others = (0..<64).map { _ in ObsUntrackedModel() }
    for other in others { _ = ManualChangeRegistry.channel(for: other, key: \ObsUntrackedModel.plain) }
}

@Suite("Observation: ObservationAnchor and the hand-notification table")
struct ObsAnchorTests {
    /// Their models notify by hand without an anchor, on purpose: its warnings go to `capturedLibraryWarnings`.
    init() { captureLibraryWarnings() }

    // MARK: ObservationAnchor

    @Test func anAnchoredModelReleasesItsChangeHandlersAtOnce() {
        var thermometer: AnchoredThermometer? = AnchoredThermometer()
        let id = ObjectIdentifier(thermometer!)
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        var changes: [KeyValueObservedChange<String>] = []
        let token = thermometer!.observe(\.reading, options: [.initial, .old, .new]) { [sentinel] _, change in
            withExtendedLifetime(sentinel) {}
            changes.append(change)
        }
        let recorder = TestRecorder<Int, Never>(releasesSubscription: .onCompletion)
        thermometer!.publisher(for: \.celsius).subscribe(recorder)
        sentinel = nil
        thermometer!.celsius = 25
        #expect(ManualChangeRegistry.hasEntry(forObjectWithID: id))
        thermometer = nil
        #expect(weakSentinel == nil, "the change handler is released with the model")
        #expect(changes == [.set(new: "20°", old: nil), .set(new: "25°", old: "20°")])
        #expect(recorder.events == [.value(20), .value(25), .finished])
        #expect(!ManualChangeRegistry.hasEntry(forObjectWithID: id), "the model's entry went with it")
        token.invalidate()                       // harmless now
    }

    @Test func anAnchoredModelNeverObservedIsReleasedNormally() {
        weak var weakModel: ObsAnchoredModel?
        do {
            let model = ObsAnchoredModel()
            weakModel = model
            model.willChangeValue(for: \.plain)
            model.didChangeValue(for: \.plain)
        }
        #expect(weakModel == nil)
    }

    // MARK: Old values kept by willChangeValue(for:)

    @Test func anUnmatchedWillChangeOfAnAnchoredModelLeavesNothingBehind() {
        var model: AnchoredStatus? = AnchoredStatus("idle")
        let id = ObjectIdentifier(model!)
        let token = model!.observe(\.status, options: [.old]) { _, _ in }
        model!.willChangeValue(for: \.status)     // no didChangeValue(for:)
        #expect(ManualChangeRegistry.pendingOldCount(forObjectWithID: id) == 1)
        model = nil
        #expect(ManualChangeRegistry.pendingOldCount(forObjectWithID: id) == 0)
        #expect(!ManualChangeRegistry.hasEntry(forObjectWithID: id))
        withExtendedLifetime(token) {}
    }

    @Test func anUnmatchedWillChangeOfAModelWithoutAnchorGoesAtThePurge() {
        var model: Status? = Status("idle")
        let id = ObjectIdentifier(model!)
        let token = model!.observe(\.status, options: [.old]) { _, _ in }
        model!.willChangeValue(for: \.status)     // no didChangeValue(for:)
        #expect(ManualChangeRegistry.pendingOldCount(forObjectWithID: id) == 1)
        model = nil
        // Other tests may purge meanwhile: only the state after a purge is certain.
        purgeTheTable()
        #expect(ManualChangeRegistry.pendingOldCount(forObjectWithID: id) == 0)
        withExtendedLifetime(token) {}
    }

    @Test func aNewObjectAtTheSameAddressDoesNotInheritTheOldValue() throws {
        // The allocator hands the freed memory to the next object of that size on the
        // thread that freed it, usually at once; keep the misses alive so that each try
        // gets another address. A test running in parallel may hold the first object for
        // a moment (a purge of the table), so that it is freed on that test's thread:
        // then the whole attempt is made again.
        var tokens: [KeyValueObservation] = []
        var misses: [Status] = []
        var reused: Status?
        for _ in 0..<5 where reused == nil {
            var first: Status? = Status("first")
            let id = ObjectIdentifier(first!)
            tokens.append(first!.observe(\.status, options: [.old]) { _, _ in })
            first!.willChangeValue(for: \.status)     // keeps "first", never matched
            first = nil
            for _ in 0..<1_000 {
                let candidate = Status("second")
                if ObjectIdentifier(candidate) == id {
                    reused = candidate
                    break
                }
                misses.append(candidate)
            }
        }
        let second = try #require(reused, "no new object was allocated at the first one's address")
        var changes: [KeyValueObservedChange<String>] = []
        let token = second.observe(\.status, options: [.old, .new]) { _, change in changes.append(change) }
        second.didChangeValue(for: \.status)      // no willChangeValue(for:) on this object
        #expect(changes == [.set(new: "second", old: nil)])
        withExtendedLifetime((tokens, token, misses)) {}
    }

    @Test func willAndDidChangePairsStillNest() {
        let model = AnchoredStatus("idle")
        var changes: [KeyValueObservedChange<String>] = []
        let token = model.observe(\.status, options: [.old, .new]) { _, change in changes.append(change) }
        model.willChangeValue(for: \.status)      // keeps "idle"
        model.status = "busy"
        model.willChangeValue(for: \.status)      // keeps "busy"
        model.status = "done"
        model.didChangeValue(for: \.status)       // "busy" -> "done"
        model.didChangeValue(for: \.status)       // "idle" -> "done"
        #expect(changes == [
            .set(new: "busy", old: "idle"), .set(new: "done", old: "busy"),
            .set(new: "done", old: "busy"), .set(new: "done", old: "idle"),
        ])
        #expect(ManualChangeRegistry.pendingOldCount(forObjectWithID: ObjectIdentifier(model)) == 0)
        withExtendedLifetime(token) {}
    }

    // MARK: Threads

    /// Anchored models made, observed, notified and released on two threads at once, each
    /// checking that its observers end the moment its model goes.
    @Test func anchorsReleasedOnSeveralThreadsAtOnce() {
        let failures = Counter()
        runConcurrently(threads: 2) { _ in
            for i in 0..<300 {
                var model: AnchoredThermometer? = AnchoredThermometer()
                let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
                model!.publisher(for: \.reading).subscribe(recorder)
                let log = LockedLog<Int>()
                let token = model!.observe(\.celsius, options: [.new]) { _, change in log.append(change.newValue!) }
                model!.celsius = i
                model = nil
                if recorder.events != [.value("20°"), .value("\(i)°"), .finished] { failures.increment(ordering: .relaxed) }
                if log.items != [i] { failures.increment(ordering: .relaxed) }
                token.invalidate()
            }
        }
        #expect(failures.value == 0)
    }
}
