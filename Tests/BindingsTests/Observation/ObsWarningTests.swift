import BindingsTestSupport
import Foundation
import Testing
@testable import Bindings

// SPEC section 7: observing a key path whose getter reads no observable storage delivers
// the initial value and writes a one-time warning that names the key path (and, for a model
// without an anchor, `let observationAnchor = ObservationAnchor()`). An anchored model
// ends its observations when it deinitialises; one without an anchor, at the next purge.

/// A model with nothing observable, for the exit test (which runs in a child process and
/// can capture nothing).
final class ObsUntrackedModel: KeyValueObservable {
    var plain = 1
    let constant = "fixed"
    var plainDescription: String { "plain \(plain)" }
}

/// Storage notified by hand, and a key path declared to depend on it; no anchor.
final class ObsHandNotified: KeyValueObservable {
    private var storage = 20
    var celsius: Int {
        get { storage }
        set {
            willChangeValue(for: \.celsius)
            storage = newValue
            didChangeValue(for: \.celsius)
        }
    }
    var reading: String { "\(celsius)" }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        key == \ObsHandNotified.reading ? [\ObsHandNotified.celsius] : []
    }
}

/// The same, anchored.
final class ObsAnchoredHandNotified: KeyValueObservable {
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
    var reading: String { "\(celsius)" }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        key == \ObsAnchoredHandNotified.reading ? [\ObsAnchoredHandNotified.celsius] : []
    }
}

/// The same, with an anchor that is not stored: a new one at each read (a mistake).
final class ObsMisanchored: KeyValueObservable {
    var observationAnchor: ObservationAnchor { ObservationAnchor() }
    private var storage = 20
    var celsius: Int {
        get { storage }
        set {
            willChangeValue(for: \.celsius)
            storage = newValue
            didChangeValue(for: \.celsius)
        }
    }
    var reading: String { "\(celsius)" }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        key == \ObsMisanchored.reading ? [\ObsMisanchored.celsius] : []
    }
}

@Suite("Observation: a key path that reads no observable storage")
struct ObsWarningTests {
    /// Their misuse is on purpose: its warnings go to `capturedLibraryWarnings`.
    init() { captureLibraryWarnings() }

    @Test func initialValueArrivesAndObservingTwiceIsFine() {
        let model = ObsUntrackedModel()
        var values: [String] = []
        let t1 = model.observe(\.plainDescription, options: [.initial, .new]) { _, change in
            values.append(change.newValue!)
        }
        let t2 = model.observe(\.plainDescription, options: [.initial, .new]) { _, change in
            values.append(change.newValue!)
        }
        model.plain = 2                    // invisible, as the warning says
        #expect(values == ["plain 1", "plain 1"])
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        model.publisher(for: \.constant).subscribe(recorder)
        #expect(recorder.events == [.value("fixed")])
        recorder.cancel()
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func anAnchoredModelEndsItsObservationsAtOnce() {
        var model: ObsAnchoredModel? = ObsAnchoredModel()
        weak let weakModel = model
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        model!.publisher(for: \.plainDescription).subscribe(recorder)
        model = nil
        #expect(weakModel == nil)
        #expect(recorder.events == [.value("plain 1"), .finished])
    }

    @Test func aModelWithoutAnchorEndsItsObservationsAtThePurge() {
        var model: ObsUntrackedModel? = ObsUntrackedModel()
        weak let weakModel = model
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        model!.publisher(for: \.plainDescription).subscribe(recorder)
        model = nil
        #expect(weakModel == nil)
        // No deinit hook: the end is seen at the next purge of the hand-notification table,
        // which comes with its writes (every 64). (Other tests may purge sooner.)
        let others = (0..<64).map { _ in ObsUntrackedModel() }
        for other in others { _ = ManualChangeRegistry.channel(for: other, key: \ObsUntrackedModel.plain) }
        #expect(recorder.events == [.value("plain 1"), .finished])
    }

    @Test func warningIsWrittenOnceAndNamesTheKeyPath() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let model = ObsUntrackedModel()
            var values: [String] = []
            let t1 = model.observe(\.constant, options: [.initial, .new]) { _, change in
                values.append(change.newValue!)
            }
            let t2 = model.observe(\.constant, options: [.initial, .new]) { _, change in
                values.append(change.newValue!)
            }
            let t3 = model.observe(\.plainDescription, options: [.initial, .new]) { _, change in
                values.append(change.newValue!)
            }
            withExtendedLifetime((t1, t2, t3)) {}
            if values != ["fixed", "fixed", "plain 1"] { fatalError("initial values: \(values)") }
        }
        let text = standardError(of: result)
        let warnings = text.split(separator: "\n").filter { $0.contains("Bindings warning") }
        #expect(warnings.count == 2, "once per key path: \(text)")
        #expect(warnings.contains { $0.contains("ObsUntrackedModel.constant") }, "names the key path: \(text)")
        #expect(warnings.allSatisfy { $0.contains("@Observed") }, "says how to fix it: \(text)")
        #expect(
            warnings.allSatisfy { $0.contains("`let observationAnchor = ObservationAnchor()` in ObsUntrackedModel") },
            "names the anchor of a model without one: \(text)")
        // A computed key path has no name at run time on Linux: its type and value type do.
        #expect(
            warnings.contains { $0.contains("a computed property of ObsUntrackedModel, of type String") }, "\(text)")
    }

    @Test func aKeyPathNotifiedByHandOnAModelWithoutAnchorIsReportedOnce() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let plain = ObsHandNotified()
            let anchored = ObsAnchoredHandNotified()
            let t1 = plain.observe(\.reading, options: [.initial]) { _, _ in }
            let t2 = plain.observe(\.reading, options: [.initial]) { _, _ in }
            let t3 = anchored.observe(\.reading, options: [.initial]) { _, _ in }
            withExtendedLifetime((t1, t2, t3)) {}
        }
        let text = standardError(of: result)
        let warnings = text.split(separator: "\n").filter { $0.contains("Bindings warning") }
        #expect(warnings.count == 1, "once, and not for the anchored model: \(text)")
        #expect(warnings.first?.contains("ObsHandNotified") == true, "names the model: \(text)")
        #expect(
            warnings.first?.contains("`let observationAnchor = ObservationAnchor()` in ObsHandNotified") == true,
            "names the fix: \(text)")
    }

    @Test func anAnchorNotStoredInItsModelIsReported() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let model = ObsMisanchored()
            let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
            model.publisher(for: \.reading).subscribe(recorder)
            model.celsius = 21
            // The anchor went at once, but the model lives: its observation goes on.
            if recorder.events != [.value("20"), .value("21")] { fatalError("events: \(recorder.events)") }
            recorder.cancel()
        }
        let text = standardError(of: result)
        let warnings = text.split(separator: "\n").filter { $0.contains("observationAnchor of") }
        #expect(warnings.count == 1, "\(text)")
        #expect(warnings.first?.contains("let observationAnchor = ObservationAnchor()") == true, "\(text)")
    }

    /// A key path that its model notifies by hand, observed before the first notification
    /// (the KVO guide's thermometer): no warning, since changes do arrive. Said at the
    /// start, "no change will be seen" would have been false.
    @Test func noWarningForAKeyPathNotifiedByHandAfterItIsObserved() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let model = ObsAnchoredHandNotified()
            var seen: [Int] = []
            let token = model.observe(\.celsius, options: [.initial, .new]) { _, change in seen.append(change.newValue!) }
            model.celsius = 25
            token.invalidate()
            if seen != [20, 25] { fatalError("values: \(seen)") }
        }
        let text = standardError(of: result)
        #expect(!text.contains("Bindings warning"), "\(text)")
    }

    /// An untracked key path is reported when its observation ends having seen nothing,
    /// not before: the warning comes after the last line the observation ran under.
    @Test func theWarningComesWhenTheObservationEndsHavingSeenNothing() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let model = ObsUntrackedModel()
            let token = model.observe(\.plainDescription, options: [.initial]) { _, _ in }
            model.plain = 2   // plain storage: nothing notifies
            FileHandle.standardError.write(Data("still observing\n".utf8))
            token.invalidate()
        }
        let text = standardError(of: result)
        let marker = try #require(text.range(of: "still observing"))
        let warning = try #require(text.range(of: "Bindings warning: observed \\ObsUntrackedModel."))
        #expect(marker.upperBound <= warning.lowerBound, "\(text)")
        #expect(text.contains("saw no change"), "\(text)")
    }

    @Test func noWarningForTrackedKeyPaths() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let person = ObsPerson()
            let t1 = person.observe(\.firstName, options: [.initial]) { _, _ in }
            let t2 = person.observe(\.fullName, options: [.initial]) { _, _ in }
            let t3 = person.observe(\.address.city, options: [.initial]) { _, _ in }
            withExtendedLifetime((t1, t2, t3)) {}
        }
        let text = standardError(of: result)
        #expect(!text.contains("Bindings warning"), "\(text)")
    }
}
