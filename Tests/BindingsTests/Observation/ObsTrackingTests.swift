import Testing
@testable import Bindings

// Dependency tracking as derived observations use it: a re-evaluation that reads what
// the last one read reports no change (and so relinks nothing and allocates nothing);
// any other reading is reported in full, each source once, in order.

private func ids(_ sources: [any DependencySource]?) -> [ObjectIdentifier]? {
    sources?.map { ObjectIdentifier($0) }
}

@Suite("Observation: dependency tracking")
struct ObsTrackingTests {
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
