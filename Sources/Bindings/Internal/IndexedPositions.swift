/// The indexes that Foundation's KVO reports for a to-many property's change, found from
/// the edits of one ``CollectionChange``: where a changeset's insertions are after it,
/// where its deletions were before it.
///
/// Each edit's index is valid in the array as the edits before it left it, so edits move
/// each other: an insertion at or before an earlier one moves that one up, a deletion
/// counts positions without the elements deleted before it. The edits that the library
/// makes come in orders for which that costs nothing (insertions lowest first, deletions
/// highest first or at one advancing cursor); any other order is still handled, more
/// slowly. Not generic: the caller (specialized for the element type) passes the indexes.
@usableFromInline
enum IndexedPositions {
    /// The positions, after all of them, of insertions made at `indexes` in order.
    @usableFromInline
    static func afterInsertions(_ indexes: [Int]) -> RangeSet<Int> {
        var positions: [Int] = []
        positions.reserveCapacity(indexes.count)
        // While each insertion lands after every earlier one, none moves another.
        var ascending = true
        for index in indexes {
            if ascending {
                if index > positions.last ?? -1 {
                    positions.append(index)
                    continue
                }
                ascending = false
            }
            for earlier in positions.indices where positions[earlier] >= index { positions[earlier] += 1 }
            positions.append(index)
        }
        if !ascending { positions.sort() }
        return rangeSet(ascending: positions)
    }

    /// The positions, before all of them, of deletions made at `indexes` in order.
    @usableFromInline
    static func beforeDeletions(_ indexes: [Int]) -> RangeSet<Int> {
        // The positions found so far: descending while each deletion is below every
        // earlier one (highest first, as `removeAll` and `replaceSubrange` delete: then a
        // deletion's index is its position), otherwise ascending.
        var removed: [Int] = []
        removed.reserveCapacity(indexes.count)
        var descending = true
        for index in indexes {
            if descending {
                if index < removed.last ?? Int.max {
                    removed.append(index)
                    continue
                }
                descending = false
                removed.reverse()
            }
            // The position is `index + k`, with `k` the number of positions removed before
            // it: the first `k` whose removed position exceeds `index + k`. `removed[k] - k`
            // never decreases (the positions are distinct and ascending), so a binary
            // search finds it, and inserting there keeps `removed` ascending.
            var low = 0
            var high = removed.count
            while low < high {
                let middle = (low + high) / 2
                if removed[middle] - middle > index { high = middle } else { low = middle + 1 }
            }
            removed.insert(index + low, at: low)
        }
        if descending { removed.reverse() }
        return rangeSet(ascending: removed)
    }

    /// The positions of updates made at `indexes`, which move nothing.
    @usableFromInline
    static func ofUpdates(_ indexes: [Int]) -> RangeSet<Int> {
        rangeSet(ascending: indexes.sorted())
    }

    /// The set of `positions`, ascending (repeats allowed), built from its runs.
    private static func rangeSet(ascending positions: [Int]) -> RangeSet<Int> {
        guard var start = positions.first else { return RangeSet() }
        var ranges: [Range<Int>] = []
        var end = start + 1
        for position in positions.dropFirst() {
            if position <= end {
                end = max(end, position + 1)
            } else {
                ranges.append(start..<end)
                start = position
                end = position + 1
            }
        }
        ranges.append(start..<end)
        return RangeSet(ranges)
    }
}
