import BindingsTestSupport
import Testing
@testable import Bindings

// SPEC section 2: `keyPathsAffectingValue(for:)` is followed transitively, as Apple's KVO
// does: `a` ← `b` ← `c` notifies `a` once when `c` changes.

/// `a` ← `b` ← `c`: `c` is plain storage notified by hand, `b` reads that storage (not
/// `c`), `a` reads `b`. Only the declarations link `a` to `c`.
private final class Chain: KeyValueObservable {
    let observationAnchor = ObservationAnchor()
    private var storage = 1
    var c: Int {
        get { storage }
        set {
            willChangeValue(for: \.c)
            storage = newValue
            didChangeValue(for: \.c)
        }
    }
    var b: String { "b\(storage)" }
    var a: String { "a(\(b))" }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        switch key {
        case \Chain.a: [\Chain.b]
        case \Chain.b: [\Chain.c]
        default: []
        }
    }
}

/// `c` affects `a` directly and through `b`, and is notified by hand.
private final class HandDiamond: KeyValueObservable {
    let observationAnchor = ObservationAnchor()
    private var storage = 1
    var c: Int {
        get { storage }
        set {
            willChangeValue(for: \.c)
            storage = newValue
            didChangeValue(for: \.c)
        }
    }
    var b: Int { storage * 10 }
    var a: String { "a\(b)" }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        switch key {
        case \HandDiamond.a: [\HandDiamond.b, \HandDiamond.c]
        case \HandDiamond.b: [\HandDiamond.c]
        default: []
        }
    }
}

/// `c` is `@Observed` and reaches `a` three ways: declared for `a`, declared for `b`, and
/// read by `b`'s getter (tracked).
private final class ObservedDiamond: KeyValueObservable {
    @Observed var c = 1
    var b: Int { c * 10 }
    var a: String { "a\(b)" }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        switch key {
        case \ObservedDiamond.a: [\ObservedDiamond.b, \ObservedDiamond.c]
        case \ObservedDiamond.b: [\ObservedDiamond.c]
        default: []
        }
    }
}

extension ObservedDiamond {
    var cStorage: Observed<Int> { _c }
}

/// `x` ← `y` ← `x`, and `p` ← `q` ← `r` ← `p`: cycles of declarations.
private final class Cycles: KeyValueObservable {
    let observationAnchor = ObservationAnchor()
    private var storage = 1
    var x: Int {
        get { storage }
        set {
            willChangeValue(for: \.x)
            storage = newValue
            didChangeValue(for: \.x)
        }
    }
    var y: String { "y\(storage)" }
    var p: String { "p\(storage)" }
    var q: String { "q\(storage)" }
    var r: Int {
        get { storage }
        set {
            willChangeValue(for: \.r)
            storage = newValue
            didChangeValue(for: \.r)
        }
    }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        switch key {
        case \Cycles.x: [\Cycles.y]
        case \Cycles.y: [\Cycles.x]
        case \Cycles.p: [\Cycles.q]
        case \Cycles.q: [\Cycles.r]
        case \Cycles.r: [\Cycles.p]
        default: []
        }
    }
}

@Suite("Observation: declared dependencies are followed transitively")
struct ObsAffectingChainTests {
    @Test func declarationsAreFollowedTransitivelyAndCyclesEnd() {
        #expect(ObservationTarget.affectingKeyPaths(of: \Chain.a, in: Chain.self) == [\Chain.b, \Chain.c])
        #expect(ObservationTarget.affectingKeyPaths(of: \Chain.b, in: Chain.self) == [\Chain.c])
        #expect(ObservationTarget.affectingKeyPaths(of: \Chain.c, in: Chain.self) == [])
        #expect(ObservationTarget.affectingKeyPaths(of: \Cycles.x, in: Cycles.self) == [\Cycles.y])
        #expect(ObservationTarget.affectingKeyPaths(of: \Cycles.p, in: Cycles.self) == [\Cycles.q, \Cycles.r])
        #expect(ObservationTarget.affectingKeyPaths(of: \Cycles.r, in: Cycles.self) == [\Cycles.p, \Cycles.q])
        let diamond = ObservationTarget.affectingKeyPaths(of: \HandDiamond.a, in: HandDiamond.self)
        #expect(diamond.count == 2)
        #expect(Set(diamond) == [\HandDiamond.b, \HandDiamond.c])
    }

    @Test func aChangeOfCNotifiesObserversOfAOnceThroughB() {
        let chain = Chain()
        var changes: [KeyValueObservedChange<String>] = []
        let token = chain.observe(\.a, options: [.initial, .old, .new, .prior]) { _, change in
            changes.append(change)
        }
        chain.c = 2
        chain.c = 3
        #expect(changes == [
            .set(new: "a(b1)", old: nil),
            .prior(old: "a(b1)"), .set(new: "a(b2)", old: "a(b1)"),
            .prior(old: "a(b2)"), .set(new: "a(b3)", old: "a(b2)"),
        ])
        token.invalidate()
        chain.c = 4
        #expect(changes.count == 5)
    }

    @Test func publishersOfEachLinkOfTheChain() {
        let chain = Chain()
        let a = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        let b = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        let c = TestRecorder<Int, Never>(releasesSubscription: .onCompletion)
        chain.publisher(for: \.a).subscribe(a)
        chain.publisher(for: \.b).subscribe(b)
        chain.publisher(for: \.c).subscribe(c)
        chain.c = 2
        #expect(a.events == [.value("a(b1)"), .value("a(b2)")])
        #expect(b.events == [.value("b1"), .value("b2")])
        #expect(c.events == [.value(1), .value(2)])
        for recorder in [a, b] { recorder.cancel() }
        c.cancel()
    }

    @Test func aHandNotifiedChangeReachingAByTwoPathsNotifiesOnce() {
        let diamond = HandDiamond()
        var changes: [KeyValueObservedChange<String>] = []
        let token = diamond.observe(\.a, options: [.old, .new, .prior]) { _, change in
            changes.append(change)
        }
        diamond.c = 2
        diamond.c = 2
        #expect(changes == [
            .prior(old: "a10"), .set(new: "a20", old: "a10"),
            .prior(old: "a20"), .set(new: "a20", old: "a20"),
        ])
        withExtendedLifetime(token) {}
    }

    @Test func anObservedChangeReachingAByThreePathsNotifiesOnce() {
        let diamond = ObservedDiamond()
        var changes: [KeyValueObservedChange<String>] = []
        let token = diamond.observe(\.a, options: [.initial, .old, .new, .prior]) { _, change in
            changes.append(change)
        }
        diamond.c = 2
        diamond.c = 3
        #expect(changes == [
            .set(new: "a10", old: nil),
            .prior(old: "a10"), .set(new: "a20", old: "a10"),
            .prior(old: "a20"), .set(new: "a30", old: "a20"),
        ])
        // Two links to `c`'s channel (changes, prior notices), whatever the number of paths.
        #expect(diamond.cStorage.observerCount == 2)
        withExtendedLifetime(token) {}
    }

    @Test func cyclesOfDeclarationsTerminateAndNotifyOnce() {
        let cycles = Cycles()
        var ys: [String] = []
        var xs: [Int] = []
        var ps: [String] = []
        let t1 = cycles.observe(\.y, options: [.initial, .new]) { _, change in ys.append(change.newValue!) }
        let t2 = cycles.observe(\.x, options: [.initial, .new]) { _, change in xs.append(change.newValue!) }
        let t3 = cycles.observe(\.p, options: [.initial, .new]) { _, change in ps.append(change.newValue!) }
        cycles.x = 2
        cycles.r = 3
        #expect(ys == ["y1", "y2"])           // `r` does not affect `y`
        #expect(xs == [1, 2])
        #expect(ps == ["p1", "p3"])           // `x` does not affect `p`
        withExtendedLifetime((t1, t2, t3)) {}
    }
}
