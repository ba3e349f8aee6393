import BindingsTestSupport
import Testing
@testable import Bindings

// A model that holds an `ObservableArray` is observable through its key paths: KVO's
// indexed changes for `\.tasks`, and computed key paths that read the array track it.

final class ArrayBoard: KeyValueObservable {
    let tasks = ObservableArray<String>()
    @Observed var filter = ""
    var matching: [String] { tasks.filter { filter.isEmpty || $0.contains(filter) } }
}

final class ArrayBoardView: BindingOwner {
    var count = 0
    var rows: [String] = []
    var subscriptions = Set<AnyCancellable>()
}

/// What a handler of `\.tasks` saw: the kind and the indexes.
private struct Seen: Equatable {
    let kind: KeyValueChange
    let indexes: [Int]
}

@Suite("Observation: an ObservableArray through a model's key paths")
struct ObservableArrayKeyPathTests {
    private func watchKinds(_ board: ArrayBoard, into seen: LockedLog<Seen>) -> KeyValueObservation {
        board.observe(\.tasks, options: [.new]) { _, change in
            seen.append(Seen(kind: change.kind, indexes: change.indexes.map { Array($0.ranges.joined()) } ?? []))
        }
    }

    @Test func observeGetsKVOsIndexedChanges() {
        let board = ArrayBoard()
        let seen = LockedLog<Seen>()
        let token = watchKinds(board, into: seen)
        board.tasks.append(contentsOf: ["a", "b", "c"])
        board.tasks.remove(at: 1)
        board.tasks[0] = "A"
        board.tasks.insert("z", at: 0)
        board.tasks.removeSubrange(0..<2)
        #expect(seen.items == [
            Seen(kind: .insertion, indexes: [0, 1, 2]),
            Seen(kind: .removal, indexes: [1]),
            Seen(kind: .replacement, indexes: [0]),
            Seen(kind: .insertion, indexes: [0]),
            Seen(kind: .removal, indexes: [0, 1]),
        ])
        #expect(board.tasks.elements == ["c"])
        withExtendedLifetime(token) {}
    }

    @Test func largeChangesetsReportEveryIndex() {
        // Thousands of edits in one changeset (their positions are found in linear time:
        // `removeAll` of 10,000 elements took 88 ms when it was quadratic).
        let board = ArrayBoard()
        let seen = LockedLog<Seen>()
        let token = watchKinds(board, into: seen)
        board.tasks.append(contentsOf: (0..<3000).map(String.init))
        board.tasks.batchUpdates { $0.removeSubrange(1000..<2000) }
        board.tasks.removeAll()
        #expect(seen.items == [
            Seen(kind: .insertion, indexes: Array(0..<3000)),
            Seen(kind: .removal, indexes: Array(1000..<2000)),
            Seen(kind: .removal, indexes: Array(0..<2000)),
        ])
        withExtendedLifetime(token) {}
    }

    @Test func aMixedOrMovingChangesetIsASetting() {
        let board = ArrayBoard()
        board.tasks.append(contentsOf: ["a", "b", "c"])
        let seen = LockedLog<Seen>()
        let token = watchKinds(board, into: seen)
        board.tasks.batchUpdates { $0.remove(at: 0); $0.append("d") }
        board.tasks.replace(with: ["d", "c", "b"])
        #expect(seen.items == [Seen(kind: .setting, indexes: []), Seen(kind: .setting, indexes: [])])
        withExtendedLifetime(token) {}
    }

    @Test func theNewValueIsTheArrayItself() {
        let board = ArrayBoard()
        var values: [[String]] = []
        let token = board.observe(\.tasks, options: [.initial, .new]) { _, change in
            values.append(change.newValue!.elements)
            #expect(change.newValue === board.tasks)
        }
        board.tasks.append("a")
        board.tasks.append("b")
        #expect(values == [[], ["a"], ["a", "b"]])
        withExtendedLifetime(token) {}
    }

    @Test func aComputedKeyPathThatReadsTheArrayTracksIt() {
        let board = ArrayBoard()
        var counts: [Int] = []
        var matching: [[String]] = []
        let c1 = board.publisher(for: \.tasks.count).sink { counts.append($0) }
        let c2 = board.publisher(for: \.matching).sink { matching.append($0) }
        board.tasks.append("write")
        board.filter = "sh"
        board.tasks.append("ship")
        board.tasks.removeAll()
        #expect(counts == [0, 1, 2, 0])
        #expect(matching == [[], ["write"], [], ["ship"], []])
        withExtendedLifetime((c1, c2)) {}
    }

    @Test func bindsTheWholeCollectionAndItsCount() {
        let board = ArrayBoard()
        let view = ArrayBoardView()
        view.reactive.count <~ board.publisher(for: \.tasks.count)
        view.reactive.rows <~ board.publisher(for: \.tasks).map(\.elements)
        board.tasks.append(contentsOf: ["a", "b"])
        board.tasks.swapAt(0, 1)
        #expect(view.count == 2)
        #expect(view.rows == ["b", "a"])
    }

    @Test func autorunTracksTheArray() {
        let board = ArrayBoard()
        var seen: [[String]] = []
        let reaction = autorun { seen.append(board.tasks.elements) }
        board.tasks.append("a")
        board.tasks.batchUpdates { $0.append("b"); $0.append("c") }
        #expect(seen == [[], ["a"], ["a", "b", "c"]])
        withExtendedLifetime(reaction) {}
    }

    @Test func priorNoticesComeBeforeEachChangeWithItsIndexes() {
        // As Foundation's KVO announces a to-many property's changes: `\.tasks` gets a
        // prior notice of each change, with its kind and indexes, and `\.tasks.count`,
        // which reads the array, one with the count before the change.
        let board = ArrayBoard()
        var tasks: [String] = []
        var counts: [String] = []
        let tasksToken = board.observe(\.tasks, options: [.prior, .new]) { board, change in
            let indexes = change.indexes.map { Array($0.ranges.joined()) } ?? []
            tasks.append("\(change.isPrior ? "prior " : "")\(change.kind) \(indexes) \(board.tasks.elements)")
        }
        let countToken = board.observe(\.tasks.count, options: [.prior, .old, .new]) { _, change in
            counts.append(change.isPrior ? "prior \(change.oldValue!)" : "\(change.oldValue!) -> \(change.newValue!)")
        }
        board.tasks.append("a")
        board.tasks.append("b")
        board.tasks.batchUpdates { $0.removeAll() }
        #expect(tasks == [
            "prior insertion [0] []", "insertion [0] [\"a\"]",
            "prior insertion [1] [\"a\"]", "insertion [1] [\"a\", \"b\"]",
            "prior removal [0, 1] [\"a\", \"b\"]", "removal [0, 1] []",
        ])
        #expect(counts == ["prior 0", "0 -> 1", "prior 1", "1 -> 2", "prior 2", "2 -> 0"])
        withExtendedLifetime((tasksToken, countToken)) {}
    }

    @Test func inABatchThePriorNoticeAndTheChangeAreBothSettings() {
        // In a batch the array's key path gets one `.setting` for all its edits, and its
        // prior notice, which comes at the first edit, is a `.setting` too. An edit made
        // by an observer during the flush gets a prior notice of its own.
        let board = ArrayBoard()
        var tasks: [String] = []
        let token = board.observe(\.tasks, options: [.prior, .new]) { _, change in
            tasks.append("\(change.isPrior ? "prior " : "")\(change.kind) \(change.indexes == nil ? "" : "indexed")")
        }
        let refill = board.observe(\.filter, options: [.new]) { board, change in
            if change.newValue == "refill" { board.tasks.append("c") }
        }
        batchChanges {
            board.tasks.append("a")
            board.tasks.append("b")
            board.filter = "refill"
        }
        #expect(board.tasks.elements == ["a", "b", "c"])
        #expect(tasks == ["prior setting ", "setting ", "prior setting ", "setting "])
        withExtendedLifetime((token, refill)) {}
    }

    @Test func aKeyPathOverTheArrayWaitsForTheEndOfABatchItsChangesDoNot() {
        // The array's `changes` get each edit at once; `\.tasks.count` gets one change,
        // at the end, as for any key path in a batch.
        let board = ArrayBoard()
        var counts: [Int] = []
        var edits: [[CollectionChange<String>.Edit]] = []
        let cancellable = board.publisher(for: \.tasks.count).sink { counts.append($0) }
        let changes = board.tasks.changes.sink { edits.append($0.changes) }
        batchChanges {
            board.tasks.append("a")
            board.tasks.append("b")
            #expect(counts == [0])
            #expect(edits == [[.insert("a", at: 0)], [.insert("b", at: 1)]])
        }
        #expect(counts == [0, 2])
        withExtendedLifetime((cancellable, changes)) {}
    }
}
