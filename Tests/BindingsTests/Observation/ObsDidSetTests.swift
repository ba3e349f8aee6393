import Testing
@testable import Bindings

// `@Observed var x { didSet { ... } }`: observers are notified when the property wrapper
// stores the value, which is before the property's `didSet` runs (Foundation's KVO
// notifies after the whole setter). These tests pin that, and the remedies that
// Sources/Bindings/Bindings.docc/MigratingFromKVO.md gives ("didSet runs after the observers").

/// An `@Observed` property whose `didSet` refreshes a cache kept in plain storage.
private final class Gauge: KeyValueObservable {
    @Observed var x = 1 {
        didSet { cache = "x=\(x)" }
    }
    var cache = "x=1"
    /// Reads `x` (tracked) and the cache.
    var summary: String { "\(x) \(cache)" }
    /// Reads the cache only; declared to depend on `x`.
    var cached: String { cache }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        key == \Gauge.cached ? [\Gauge.x] : []
    }
}

/// Remedy: a computed property instead of the cache.
private final class ComputedGauge: KeyValueObservable {
    @Observed var x = 1
    var cache: String { "x=\(x)" }
    var summary: String { "\(x) \(cache)" }
}

/// Remedy: the cache notified by hand around its update, and declared.
private final class AnnouncedGauge: KeyValueObservable {
    @Observed var x = 1 {
        didSet {
            willChangeValue(for: \.cache)
            cacheStorage = "x=\(x)"
            didChangeValue(for: \.cache)
        }
    }
    private var cacheStorage = "x=1"
    var cache: String { cacheStorage }
    var summary: String { "\(x) \(cache)" }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        key == \AnnouncedGauge.summary ? [\AnnouncedGauge.cache] : []
    }
}

/// Remedy: the cache `@Observed` too.
private final class ObservedCacheGauge: KeyValueObservable {
    @Observed var x = 1 {
        didSet { cache = "x=\(x)" }
    }
    @Observed var cache = "x=1"
    var summary: String { "\(x) \(cache)" }
}

@Suite("Observation: didSet of an @Observed property runs after its observers")
struct ObsDidSetTests {
    @Test func observersSeeTheStateBeforeDidSet() {
        let gauge = Gauge()
        var seenByX: [String] = []
        let t1 = gauge.observe(\.x, options: [.new]) { gauge, change in
            seenByX.append("\(change.newValue!) \(gauge.cache)")
        }
        var summaries: [String] = []
        let t2 = gauge.observe(\.summary, options: [.initial, .new]) { _, change in
            summaries.append(change.newValue!)
        }
        var caches: [String] = []
        let t3 = gauge.observe(\.cached, options: [.initial, .new]) { _, change in
            caches.append(change.newValue!)
        }
        gauge.x = 2
        gauge.x = 3
        gauge.x += 1                              // in place: the same order
        // The new `x`, but the cache as it was before `didSet`.
        #expect(seenByX == ["2 x=1", "3 x=2", "4 x=3"])
        #expect(summaries == ["1 x=1", "2 x=1", "3 x=2", "4 x=3"])
        #expect(caches == ["x=1", "x=1", "x=2", "x=3"])
        // The model moved on after the last notification, and nothing tells.
        #expect(gauge.summary == "4 x=4")
        #expect(gauge.cached == "x=4")
        withExtendedLifetime((t1, t2, t3)) {}
    }

    @Test func aComputedPropertyInsteadOfTheCacheIsNeverBehind() {
        let gauge = ComputedGauge()
        var seenByX: [String] = []
        let t1 = gauge.observe(\.x, options: [.new]) { gauge, change in
            seenByX.append("\(change.newValue!) \(gauge.cache)")
        }
        var summaries: [String] = []
        let t2 = gauge.observe(\.summary, options: [.initial, .new]) { _, change in
            summaries.append(change.newValue!)
        }
        gauge.x = 2
        gauge.x = 3
        #expect(seenByX == ["2 x=2", "3 x=3"])
        #expect(summaries == ["1 x=1", "2 x=2", "3 x=3"])
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func aCacheNotifiedByHandEndsCurrent() {
        let gauge = AnnouncedGauge()
        var summaries: [String] = []
        let t1 = gauge.observe(\.summary, options: [.initial, .new]) { _, change in
            summaries.append(change.newValue!)
        }
        var caches: [String] = []
        let t2 = gauge.observe(\.cache, options: [.initial, .new]) { _, change in
            caches.append(change.newValue!)
        }
        gauge.x = 2
        // Once for `x` (the cache not yet updated), once for the cache.
        #expect(summaries == ["1 x=1", "2 x=1", "2 x=2"])
        #expect(caches == ["x=1", "x=2"])
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func anObservedCacheEndsCurrent() {
        let gauge = ObservedCacheGauge()
        var summaries: [String] = []
        let token = gauge.observe(\.summary, options: [.initial, .new]) { _, change in
            summaries.append(change.newValue!)
        }
        gauge.x = 2
        #expect(summaries == ["1 x=1", "2 x=1", "2 x=2"])
        withExtendedLifetime(token) {}
    }
}
