import Testing
@testable import Bindings

// The indexes that KVO reports for a changeset of an `ObservableArray`: where its
// insertions are after it, where its deletions were before it. Checked against the edits
// replayed one by one on an array of numbered elements.

@Suite("Observation: the indexes of a changeset's insertions and deletions")
struct ObsIndexedPositionsTests {
    /// Where insertions made at `indexes`, in order, into an array of `count` elements
    /// end up: found by making them.
    private func replayedInsertions(_ indexes: [Int], into count: Int) -> [Int] {
        var elements = Array(repeating: -1, count: count)
        for (number, index) in indexes.enumerated() { elements.insert(number, at: index) }
        return elements.indices.filter { elements[$0] >= 0 }
    }

    /// Which elements of an array of `count` deletions made at `indexes`, in order,
    /// remove: found by making them.
    private func replayedDeletions(_ indexes: [Int], from count: Int) -> [Int] {
        var elements = Array(0..<count)
        var removed: [Int] = []
        for index in indexes { removed.append(elements.remove(at: index)) }
        return removed.sorted()
    }

    private func positions(_ set: RangeSet<Int>) -> [Int] { Array(set.ranges.joined()) }

    @Test func deletionsHighestFirstAreWhereTheyWere() {
        #expect(positions(IndexedPositions.beforeDeletions([4, 3, 2])) == [2, 3, 4])
    }

    @Test func deletionsAtOneAdvancingCursorCountTheDeletedOnes() {
        // As a difference deletes a run: each at the place the last one left.
        #expect(positions(IndexedPositions.beforeDeletions([2, 2, 2])) == [2, 3, 4])
        #expect(positions(IndexedPositions.beforeDeletions([1, 1, 3])) == [1, 2, 5])
    }

    @Test func deletionsInAnyOtherOrder() {
        #expect(positions(IndexedPositions.beforeDeletions([5, 3, 4])) == [3, 5, 6])
        #expect(positions(IndexedPositions.beforeDeletions([0, 5, 0, 2])) == [0, 1, 4, 6])
    }

    @Test func insertionsLowestFirstStayWhereTheyWentIn() {
        #expect(positions(IndexedPositions.afterInsertions([3, 4, 5])) == [3, 4, 5])
    }

    @Test func aLaterInsertionAtOrBeforeAnEarlierOneMovesIt() {
        #expect(positions(IndexedPositions.afterInsertions([0, 0])) == [0, 1])
        #expect(positions(IndexedPositions.afterInsertions([2, 0])) == [0, 3])
        #expect(positions(IndexedPositions.afterInsertions([1, 5, 1])) == [1, 2, 6])
    }

    @Test func updatesAreWhereTheyAre() {
        #expect(positions(IndexedPositions.ofUpdates([4, 1, 2])) == [1, 2, 4])
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func randomEditsMatchTheirReplay(seed: UInt64) {
        var random = RelRandom(seed: seed)
        for round in 0..<200 {
            var count = random.below(30)
            var deletions: [Int] = []
            let start = count
            for _ in 0..<random.below(min(count, 12) + 1) where count > 0 {
                deletions.append(random.below(count))
                count -= 1
            }
            #expect(positions(IndexedPositions.beforeDeletions(deletions)) == replayedDeletions(deletions, from: start),
                    "seed \(seed), round \(round): deletions \(deletions) from \(start)")
            var insertions: [Int] = []
            count = start
            for _ in 0..<random.below(12) {
                insertions.append(random.below(count + 1))
                count += 1
            }
            #expect(positions(IndexedPositions.afterInsertions(insertions)) == replayedInsertions(insertions, into: start),
                    "seed \(seed), round \(round): insertions \(insertions) into \(start)")
        }
    }
}
