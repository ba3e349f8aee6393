import BindingsTestSupport
import Testing
@testable import Bindings

/// Storage that is not `@Observed`, notified by hand, and a key path that depends on it.
private final class Thermometer: KeyValueObservable {
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
        key == \Thermometer.reading ? [\Thermometer.celsius] : []
    }
}

/// A key path whose getter reads plain storage, declared to depend on an `@Observed` one.
private final class Cache: KeyValueObservable {
    @Observed var version = 1
    var cached = "v1"               // plain: written before `version` changes
    var current: String { cached }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        key == \Cache.current ? [\Cache.version] : []
    }

    func update(_ text: String) {
        cached = text
        version += 1
    }
}

/// Storage notified by hand that the model may also change silently (a cache filled
/// without notifying), as Foundation allows: the old value of a change is the value at
/// `willChangeValue(for:)`, whatever was last notified.
private final class Gauge: KeyValueObservable {
    let observationAnchor = ObservationAnchor()
    var storage = 1
    var level: Int {
        get { storage }
        set {
            willChangeValue(for: \.level)
            storage = newValue
            didChangeValue(for: \.level)
        }
    }
    var label: String {
        willAccessValue(for: \.level)
        return "L\(storage)"
    }
}

/// An `@Observed` property that the model also announces by hand, as KVO allows.
private final class Announcer: KeyValueObservable {
    @Observed var status = "idle"
}

@Suite("Observation: keyPathsAffectingValue, willChangeValue and didChangeValue")
struct ObsManualTests {
    /// Their models notify by hand without an anchor, on purpose: its warnings go to `capturedLibraryWarnings`.
    init() { captureLibraryWarnings() }

    @Test func handNotifiedStorage() {
        let thermometer = Thermometer()
        var changes: [KeyValueObservedChange<Int>] = []
        let token = thermometer.observe(\.celsius, options: [.initial, .old, .new]) { _, change in
            changes.append(change)
        }
        thermometer.celsius = 25
        thermometer.celsius = 25
        #expect(changes == [.set(new: 20, old: nil), .set(new: 25, old: 20), .set(new: 25, old: 25)])
        token.invalidate()
        thermometer.celsius = 30
        #expect(changes.count == 3)
    }

    @Test func handNotifiedStorageWithPrior() {
        let thermometer = Thermometer()
        var changes: [KeyValueObservedChange<Int>] = []
        let token = thermometer.observe(\.celsius, options: [.old, .new, .prior]) { _, change in
            changes.append(change)
        }
        thermometer.celsius = 25
        thermometer.celsius = 30
        #expect(changes == [
            .prior(old: 20), .set(new: 25, old: 20),
            .prior(old: 25), .set(new: 30, old: 25),
        ])
        withExtendedLifetime(token) {}
    }

    /// The old value of a hand-notified change, in its prior notice and in the change, is
    /// the value at `willChangeValue(for:)`, as Foundation's: not the value last notified,
    /// when the storage changed silently in between (issue: it was the last notified).
    @Test func theOldValueIsTheValueAtWillChange() {
        let gauge = Gauge()
        var changes: [KeyValueObservedChange<Int>] = []
        let token = gauge.observe(\.level, options: [.old, .new, .prior]) { _, change in
            changes.append(change)
        }
        gauge.storage = 5
        gauge.level = 6
        gauge.level = 7
        #expect(changes == [.prior(old: 5), .set(new: 6, old: 5), .prior(old: 6), .set(new: 7, old: 6)])
        // A key path that reads it through its getter keeps the value it last sent.
        var labels: [KeyValueObservedChange<String>] = []
        let other = gauge.observe(\.label, options: [.old, .new]) { _, change in labels.append(change) }
        gauge.level = 8
        #expect(labels == [.set(new: "L8", old: "L7")])
        #expect(changes.suffix(2) == [.prior(old: 7), .set(new: 8, old: 7)])
        withExtendedLifetime((token, other)) {}
    }

    @Test func handNotifiedStoragePublisherWithPrior() {
        let thermometer = Thermometer()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: .onCompletion)
        thermometer.publisher(for: \.celsius, options: [.initial, .prior, .new]).subscribe(recorder)
        thermometer.celsius = 25
        #expect(recorder.events == [.value(20), .value(20), .value(25)])
        recorder.cancel()
    }

    @Test func keyPathAffectedByHandNotifiedStorage() {
        let thermometer = Thermometer()
        var changes: [KeyValueObservedChange<String>] = []
        let token = thermometer.observe(\.reading, options: [.initial, .old, .new, .prior]) { _, change in
            changes.append(change)
        }
        thermometer.celsius = 25
        #expect(changes == [.set(new: "20°", old: nil), .prior(old: "20°"), .set(new: "25°", old: "20°")])
        withExtendedLifetime(token) {}
    }

    @Test func keyPathAffectedByObservedProperty() {
        let cache = Cache()
        var changes: [KeyValueObservedChange<String>] = []
        let token = cache.observe(\.current, options: [.initial, .old, .new]) { _, change in
            changes.append(change)
        }
        cache.update("v2")
        cache.update("v3")
        #expect(changes == [.set(new: "v1", old: nil), .set(new: "v2", old: "v1"), .set(new: "v3", old: "v2")])
        withExtendedLifetime(token) {}
    }

    @Test func handNotificationWithNobodyObservingIsHarmless() {
        let thermometer = Thermometer()
        thermometer.celsius = 21
        thermometer.willChangeValue(for: \.reading)
        thermometer.didChangeValue(for: \.reading)
        #expect(thermometer.reading == "21°")
    }

    @Test func didChangeValueOnAnObservedPropertyNotifiesItsObservers() {
        let announcer = Announcer()
        var changes: [KeyValueObservedChange<String>] = []
        let token = announcer.observe(\.status, options: [.new, .prior]) { _, change in
            changes.append(change)
        }
        announcer.willChangeValue(for: \.status)
        announcer.didChangeValue(for: \.status)
        #expect(changes == [.prior(old: nil), .set(new: "idle", old: nil)])
        withExtendedLifetime(token) {}
    }

    @Test func willAndDidChangeValueOnAnObservedPropertyCarryTheOldValue() {
        let announcer = Announcer()
        var changes: [KeyValueObservedChange<String>] = []
        let token = announcer.observe(\.status, options: [.old, .new, .prior]) { _, change in
            changes.append(change)
        }
        announcer.willChangeValue(for: \.status)
        announcer.didChangeValue(for: \.status)
        #expect(changes == [.prior(old: "idle"), .set(new: "idle", old: "idle")])
        withExtendedLifetime(token) {}
    }

    @Test func publisherOfAnAffectedKeyPath() {
        let thermometer = Thermometer()
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        thermometer.publisher(for: \.reading).subscribe(recorder)
        thermometer.celsius = 25
        thermometer.celsius = 26
        #expect(recorder.events == [.value("20°"), .value("25°"), .value("26°")])
        recorder.cancel()
        thermometer.celsius = 27
        #expect(recorder.events == [.value("20°"), .value("25°"), .value("26°")])
    }
}
