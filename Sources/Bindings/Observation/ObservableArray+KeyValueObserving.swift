// A model that holds an `ObservableArray` (`let tasks = ObservableArray<Task>()`) is
// observable through its key paths: `\.tasks` depends on the array as on an `@Observed`
// property, and `observe(\.tasks, options:)` gets KVO's indexed changes.

extension ObservableArray: ObservableStorage {
    @usableFromInline
    var storageSource: any DependencySource { channel }
}

extension ObservableArray {
    /// The indexed change, as Foundation's KVO reports a to-many property's, that a
    /// changeset of one kind makes: only insertions (`.insertion`, at the positions after
    /// the change), only deletions (`.removal`, at the positions before it), or only
    /// updates (`.replacement`); `nil` for a mix or a move, which KVO reports as a
    /// `.setting`. Its new value is the array itself, whose contents are those after the
    /// change (an observer of `\.tasks` receives the array, and its `changes` tell the
    /// elements).
    ///
    /// Made under the array's lock at each change that a key path's observation depends
    /// on. Inlined where the element type is known: the edits are read there, with no
    /// metadata look-up per edit, and a single edit (an append) needs nothing more; the
    /// positions of several are found by ``IndexedPositions``, in time linear in their
    /// number for the edits the array makes.
    @inlinable
    func indexedChange(for edits: [CollectionChange<Element>.Edit]) -> IndexedChange? {
        guard let first = edits.first else { return nil }
        let kind: KeyValueChange
        let firstIndex: Int
        switch first {
        case .insert(_, let at): (kind, firstIndex) = (.insertion, at)
        case .delete(let at): (kind, firstIndex) = (.removal, at)
        case .update(_, let at): (kind, firstIndex) = (.replacement, at)
        case .move: return nil
        }
        let indexes: RangeSet<Int>
        if edits.count == 1 {
            indexes = RangeSet(firstIndex..<firstIndex + 1)
        } else {
            var positions: [Int] = []
            positions.reserveCapacity(edits.count)
            for edit in edits {
                switch (kind, edit) {
                case (.insertion, .insert(_, let at)), (.removal, .delete(let at)), (.replacement, .update(_, let at)):
                    positions.append(at)
                default:
                    return nil
                }
            }
            switch kind {
            case .insertion: indexes = IndexedPositions.afterInsertions(positions)
            case .removal: indexes = IndexedPositions.beforeDeletions(positions)
            default: indexes = IndexedPositions.ofUpdates(positions)
            }
        }
        return IndexedChange(
            kind: kind, indexes: indexes, key: nil, object: ObjectIdentifier(self), oldElements: nil, newElements: self)
    }
}
