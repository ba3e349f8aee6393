import Testing
@testable import Bindings

/// A to-many property with storage that is not `@Observed`, whose mutations are
/// announced as indexed changes, as with Foundation's `willChange(_:valuesAt:forKey:)`.
private final class Playlist: KeyValueObservable {
    private var storage: [String] = []
    var songs: [String] { storage }
    var count: Int { songs.count }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        key == \Playlist.count ? [\Playlist.songs] : []
    }

    func insert(_ songs: [String], at index: Int) {
        let indexes = RangeSet(index ..< index + songs.count)
        willChange(.insertion, valuesAt: indexes, for: \.songs)
        storage.insert(contentsOf: songs, at: index)
        didChange(.insertion, valuesAt: indexes, for: \.songs)
    }

    func remove(at indexes: RangeSet<Int>) {
        willChange(.removal, valuesAt: indexes, for: \.songs)
        storage.removeSubranges(indexes)
        didChange(.removal, valuesAt: indexes, for: \.songs)
    }

    func replace(at index: Int, with song: String) {
        let indexes = RangeSet(index ..< index + 1)
        willChange(.replacement, valuesAt: indexes, for: \.songs)
        storage[index] = song
        didChange(.replacement, valuesAt: indexes, for: \.songs)
    }
}

private typealias Change = KeyValueObservedChange<[String]>

@Suite("Observation: indexed collection changes")
struct ObsIndexedChangeTests {
    /// Their models notify by hand without an anchor, on purpose: its warnings go to `capturedLibraryWarnings`.
    init() { captureLibraryWarnings() }

    @Test func eachKindArrivesWithItsIndexesAndElements() {
        let playlist = Playlist()
        var changes: [Change] = []
        let token = playlist.observe(\.songs, options: [.old, .new]) { _, change in changes.append(change) }
        playlist.insert(["a", "b", "c"], at: 0)
        playlist.replace(at: 1, with: "B")
        playlist.remove(at: RangeSet([0 ..< 1, 2 ..< 3]))
        #expect(changes == [
            Change(kind: .insertion, newValue: ["a", "b", "c"], oldValue: nil, indexes: RangeSet(0 ..< 3)),
            Change(kind: .replacement, newValue: ["B"], oldValue: ["b"], indexes: RangeSet(1 ..< 2)),
            Change(kind: .removal, newValue: nil, oldValue: ["a", "c"], indexes: RangeSet([0 ..< 1, 2 ..< 3])),
        ])
        #expect(playlist.songs == ["B"])
        withExtendedLifetime(token) {}
    }

    @Test func priorNoticesCarryTheKindAndTheOldElements() {
        let playlist = Playlist()
        playlist.insert(["a", "b"], at: 0)
        var changes: [Change] = []
        let token = playlist.observe(\.songs, options: [.old, .prior]) { _, change in changes.append(change) }
        playlist.remove(at: RangeSet(1 ..< 2))
        #expect(changes == [
            Change(kind: .removal, newValue: nil, oldValue: ["b"], indexes: RangeSet(1 ..< 2), isPrior: true),
            Change(kind: .removal, newValue: nil, oldValue: ["b"], indexes: RangeSet(1 ..< 2), isPrior: false),
        ])
        withExtendedLifetime(token) {}
    }

    @Test func optionsOnlyDecideWhichElementsAreFilledIn() {
        let playlist = Playlist()
        var changes: [Change] = []
        let token = playlist.observe(\.songs, options: [.initial]) { _, change in changes.append(change) }
        playlist.insert(["a"], at: 0)
        #expect(changes == [
            Change(kind: .setting, newValue: nil, oldValue: nil),
            Change(kind: .insertion, newValue: nil, oldValue: nil, indexes: RangeSet(0 ..< 1)),
        ])
        withExtendedLifetime(token) {}
    }

    @Test func publishersSendTheWholeCollection() {
        let playlist = Playlist()
        var values: [[String]] = []
        let c = playlist.publisher(for: \.songs).sink { values.append($0) }
        playlist.insert(["a", "b"], at: 0)
        playlist.remove(at: RangeSet(0 ..< 1))
        #expect(values == [[], ["a", "b"], ["b"]])
        withExtendedLifetime(c) {}
    }

    @Test func aKeyPathThatDependsOnTheCollectionSeesASet() {
        // The indexes describe `songs`, not `count`: a dependent key path hears a set.
        let playlist = Playlist()
        var changes: [KeyValueObservedChange<Int>] = []
        let token = playlist.observe(\.count, options: [.new]) { _, change in changes.append(change) }
        playlist.insert(["a", "b"], at: 0)
        #expect(changes == [KeyValueObservedChange(kind: .setting, newValue: 2, oldValue: nil)])
        withExtendedLifetime(token) {}
    }
}
