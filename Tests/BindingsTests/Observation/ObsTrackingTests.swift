import BindingsTestSupport
import Testing
@testable import Bindings

// Dependency tracking as derived observations use it: a re-evaluation that reads what
// the last one read reports no change (and so relinks nothing and allocates nothing);
// any other reading is reported in full, each source once, in order.

private func ids(_ sources: [any DependencySource]?) -> [ObjectIdentifier]? {
    sources?.map { ObjectIdentifier($0) }
}

/// A model whose computed property records, at each evaluation, which of its reads skip
/// the creation lock: its own, and those of `other`.
final class ObsTrustProbe: KeyValueObservable {
    @Observed var a = 1
    let other: ObsCell
    let trusted = LockedLog<[Bool]>()
    init(other: ObsCell) { self.other = other }

    var sum: Int {
        let value = a + other.value
        if let session = DependencyTracking.currentSession {
            trusted.append([
                DependencyTracking.trusts(ObjectIdentifier(self), session: session),
                DependencyTracking.trusts(ObjectIdentifier(other), session: session),
            ])
        }
        return value
    }
}

@Suite("Observation: dependency tracking")
struct ObsTrackingTests {
    /// A computed key path's evaluation after a set of its root, delivered at once, skips
    /// the creation lock for the root's reads only (nobody else subscribes to a model while
    /// it is set, SPEC section 6); not after a set of another model, nor in a batch's flush
    /// or the first evaluation.
    @Test func onlyTheSetRootsReadsSkipTheCreationLock() {
        let other = ObsCell()
        let probe = ObsTrustProbe(other: other)
        var sums: [Int] = []
        let c = probe.publisher(for: \.sum).sink { sums.append($0) }
        probe.a = 2
        other.value = 5
        batchChanges { probe.a = 3 }
        #expect(sums == [1, 2, 7, 8])
        // The first evaluation (the subscription's), then one per change.
        #expect(probe.trusted.items == [[false, false], [true, false], [false, false], [false, false]])
        withExtendedLifetime(c) {}
    }

    @Test func readingWhatWasExpectedReportsNoChange() {
        let a = ObsCell(), b = ObsCell()
        let (_, sources) = DependencyTracking.track { a.value + b.value + a.value }
        #expect(sources.count == 2)
        #expect(DependencyTracking.track(expecting: sources) { _ = a.value + b.value } == nil)
        #expect(DependencyTracking.track(expecting: sources) { _ = a.value + a.value + b.value + a.value } == nil)
    }

    @Test func anotherOrderFewerOrMoreReadsAreReportedInFull() {
        let a = ObsCell(), b = ObsCell(), c = ObsCell()
        let (_, sources) = DependencyTracking.track { a.value + b.value }
        let (_, all) = DependencyTracking.track { a.value + b.value + c.value }
        let (ida, idb, idc) = (ids(all)![0], ids(all)![1], ids(all)![2])
        #expect(ids(DependencyTracking.track(expecting: sources) { _ = b.value + a.value }) == [idb, ida])
        #expect(ids(DependencyTracking.track(expecting: sources) { _ = a.value }) == [ida])
        #expect(ids(DependencyTracking.track(expecting: sources) { _ = a.value + b.value + c.value + a.value }) == [ida, idb, idc])
        #expect(ids(DependencyTracking.track(expecting: sources) { _ = c.value + b.value }) == [idc, idb])
        #expect(ids(DependencyTracking.track(expecting: sources) {}) == [])
    }

    @Test func manyDistinctReadsAreEachReportedOnce() {
        let cells = (0..<40).map { _ in ObsCell() }
        let sources = DependencyTracking.track(expecting: []) {
            for cell in cells.reversed() { _ = cell.value }
            for cell in cells { _ = cell.value }
        }
        #expect(sources?.count == 40)
        #expect(DependencyTracking.track(expecting: sources!) { for cell in cells.reversed() { _ = cell.value } } == nil)
    }

    /// A session is its thread's alone: what another thread reads meanwhile (it may read
    /// a model while nobody sets it) is neither reported to the session nor tracked there.
    @Test func anotherThreadsReadsAreNotReportedToThisThreadsSession() {
        let a = ObsCell(), b = ObsCell()
        let elsewhere = UncheckedBox(b)
        let trackingThere = LockedLog<Bool>()
        let (_, sources) = DependencyTracking.track {
            _ = a.value
            runOnAnotherThread {
                _ = elsewhere.value.value
                trackingThere.append(DependencyTracking.isActive)
            }
        }
        #expect(ids(sources) == ids(DependencyTracking.track { a.value }.1))
        #expect(trackingThere.items == [false])
    }

    @Test func anInnerTrackingIsNotReportedToTheOuter() {
        let a = ObsCell(), b = ObsCell()
        let (_, outer) = DependencyTracking.track {
            _ = a.value
            let (_, inner) = DependencyTracking.track { b.value }
            #expect(inner.count == 1)
        }
        #expect(outer.count == 1)
        #expect(ids(outer) != ids(DependencyTracking.track { b.value }.1))
    }
}
