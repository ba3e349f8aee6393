/// The edits of a ``CollectionChange`` that turn one array into another, for
/// ``ObservableArray``'s `batchUpdates` and `replace(with:)`.
///
/// Elements are compared as their type allows, found at run time (so that an array used
/// from generic code diffs as well as from concrete code):
/// - `Hashable`: the standard library's `difference(from:)`, then `inferringMoves()`;
///   each inferred pair becomes one `.move`.
/// - `Equatable`: `difference(from:)`, no moves.
/// - Neither: nothing can be compared, so every position is rewritten (see
///   ``rewriting(from:to:)``).
///
/// In each case a deletion and an insertion at the same place become one `.update`.
@usableFromInline
enum CollectionDiff {
    @usableFromInline typealias Edit<Element> = CollectionChange<Element>.Edit

    /// The edits, valid in order, that turn `old` into `new`; empty when they are equal.
    /// Compares elements, which is user code: call it outside any lock.
    static func edits<Element>(from old: [Element], to new: [Element]) -> [Edit<Element>] {
        if let hashable = Element.self as? any Hashable.Type {
            return hashableEdits(hashable, from: old, to: new)
        }
        if let equatable = Element.self as? any Equatable.Type {
            return equatableEdits(equatable, from: old, to: new)
        }
        return rewriting(from: old, to: new)
    }

    /// `H` is `Element` (opened from its metatype), so the casts below always succeed
    /// (and cost nothing: the types are the same).
    private static func hashableEdits<H: Hashable, Element>(
        _: H.Type, from old: [Element], to new: [Element]
    ) -> [Edit<Element>] {
        let difference = (new as! [H]).difference(from: old as! [H]).inferringMoves()
        return edits(difference, from: old, to: new)
    }

    private static func equatableEdits<E: Equatable, Element>(
        _: E.Type, from old: [Element], to new: [Element]
    ) -> [Edit<Element>] {
        edits((new as! [E]).difference(from: old as! [E]), from: old, to: new)
    }

    /// Elements that cannot be compared: every old element is replaced (see
    /// ``replacing(_:with:)``).
    static func rewriting<Element>(from old: [Element], to new: [Element]) -> [Edit<Element>] {
        replacing(0..<old.count, with: new)
    }

    /// The edits of replacing the elements at `subrange` with `inserted`, by position:
    /// `.update` for each element replaced one for one, then the extra old elements
    /// deleted (highest index first) or the extra new ones inserted (lowest first).
    @usableFromInline
    static func replacing<Element>(_ subrange: Range<Int>, with inserted: [Element]) -> [Edit<Element>] {
        let start = subrange.lowerBound
        let common = min(subrange.count, inserted.count)
        var edits: [Edit<Element>] = []
        edits.reserveCapacity(max(subrange.count, inserted.count))
        for offset in 0..<common { edits.append(.update(inserted[offset], at: start + offset)) }
        if subrange.count > common {
            for index in (start + common..<subrange.upperBound).reversed() { edits.append(.delete(at: index)) }
        } else {
            for offset in common..<inserted.count { edits.append(.insert(inserted[offset], at: start + offset)) }
        }
        return edits
    }

    /// Converts `difference` (of `new` from `old`) into edits valid in order.
    ///
    /// One sweep through both arrays, as the difference aligns them, keeps the array as
    /// it is after the edits so far: `cursor` elements of finished work (the first
    /// elements of `new`, in order, among which sit the sources of pending moves, see
    /// below), then the old elements not yet reached (`nextOld` on), minus those moved
    /// away already. At each place where the arrays differ (a run of removals and a run
    /// of insertions between two kept elements):
    /// - a removal paired with an insertion, both plain, is an `.update` at the cursor;
    /// - a plain removal is a `.delete` at the cursor; a plain insertion an `.insert`;
    /// - a moved element met first at its destination (it sits further on, among the old
    ///   elements) is moved back to the cursor: `.move(from: its index, to: cursor)`;
    /// - a moved element met first at its source stays where it is, behind the cursor,
    ///   until the sweep reaches its destination: then `.move(from: its index,
    ///   to: cursor - 1)`, which puts it just before the cursor. Its index drops by one
    ///   each time such an element before it leaves.
    /// A move whose two indexes are equal changes nothing and is left out.
    private static func edits<Element, Compared>(
        _ difference: CollectionDifference<Compared>, from old: [Element], to new: [Element]
    ) -> [Edit<Element>] {
        if difference.isEmpty { return [] }
        // For each removed old offset and inserted new offset: whether it is, and the
        // other end of its move (-1: a plain removal or insertion).
        var removedPartner = [Int?](repeating: nil, count: old.count)
        var insertedPartner = [Int?](repeating: nil, count: new.count)
        for change in difference {
            switch change {
            case .remove(let offset, _, let partner): removedPartner[offset] = partner ?? -1
            case .insert(let offset, _, let partner): insertedPartner[offset] = partner ?? -1
            }
        }
        var edits: [Edit<Element>] = []
        edits.reserveCapacity(difference.count)
        var movedAway = [Bool](repeating: false, count: old.count)
        // Old offset -> current index of the moved elements waiting behind the cursor.
        var waiting: [Int: Int] = [:]
        var cursor = 0
        var nextOld = 0
        var nextNew = 0
        while nextOld < old.count || nextNew < new.count {
            // Elements moved away already are no longer in the array: skip them.
            while nextOld < old.count, movedAway[nextOld] { nextOld += 1 }
            if nextOld == old.count, nextNew == new.count { break }
            let removal = nextOld < old.count ? removedPartner[nextOld] : nil
            let insertion = nextNew < new.count ? insertedPartner[nextNew] : nil
            switch (removal, insertion) {
            case (nil, nil):
                // A kept element: the same on both sides.
                cursor += 1
                nextOld += 1
                nextNew += 1
            case (-1, -1):
                edits.append(.update(new[nextNew], at: cursor))
                cursor += 1
                nextOld += 1
                nextNew += 1
            case (let partner?, _):
                if partner == -1 {
                    edits.append(.delete(at: cursor))
                } else {
                    // Its destination is ahead (were it behind, the element would have been
                    // moved away already): it waits here.
                    waiting[nextOld] = cursor
                    cursor += 1
                }
                nextOld += 1
            case (nil, let partner?):
                if partner == -1 {
                    edits.append(.insert(new[nextNew], at: cursor))
                    cursor += 1
                } else if let index = waiting.removeValue(forKey: partner) {
                    if index != cursor - 1 { edits.append(.move(from: index, to: cursor - 1)) }
                    for (source, other) in waiting where other > index { waiting[source] = other - 1 }
                } else {
                    // Still ahead, among the old elements not reached yet.
                    var index = cursor
                    for offset in nextOld..<partner where !movedAway[offset] { index += 1 }
                    if index != cursor { edits.append(.move(from: index, to: cursor)) }
                    movedAway[partner] = true
                    cursor += 1
                }
                nextNew += 1
            }
        }
        return edits
    }
}
