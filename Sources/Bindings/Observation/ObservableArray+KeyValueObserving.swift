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
    @usableFromInline
    func indexedChange(for edits: [CollectionChange<Element>.Edit]) -> IndexedChange? {
        guard let first = edits.first else { return nil }
        var indexes = RangeSet<Int>()
        switch first {
        case .insert:
            // Positions after all the insertions: a later insertion at or before an
            // earlier one moves it up.
            var positions: [Int] = []
            for edit in edits {
                guard case .insert(_, let at) = edit else { return nil }
                for index in positions.indices where positions[index] >= at { positions[index] += 1 }
                positions.append(at)
            }
            for position in positions { indexes.insert(position, within: 0..<Int.max) }
            return IndexedChange(kind: .insertion, indexes: indexes, key: nil, object: ObjectIdentifier(self),
                                 oldElements: nil, newElements: self)
        case .delete:
            // Positions before all the deletions: a deletion's position is counted in the
            // array as earlier deletions left it.
            var removed: [Int] = []
            for edit in edits {
                guard case .delete(let at) = edit else { return nil }
                var original = at
                for index in removed.sorted() where index <= original { original += 1 }
                removed.append(original)
            }
            for position in removed { indexes.insert(position, within: 0..<Int.max) }
            return IndexedChange(kind: .removal, indexes: indexes, key: nil, object: ObjectIdentifier(self),
                                 oldElements: nil, newElements: self)
        case .update:
            for edit in edits {
                guard case .update(_, let at) = edit else { return nil }
                indexes.insert(at, within: 0..<Int.max)
            }
            return IndexedChange(kind: .replacement, indexes: indexes, key: nil, object: ObjectIdentifier(self),
                                 oldElements: nil, newElements: self)
        case .move:
            return nil
        }
    }
}
