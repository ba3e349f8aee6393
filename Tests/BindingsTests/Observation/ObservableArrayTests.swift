import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// SPEC section 3b, `ObservableArray` and `CollectionChange`: each mutation sends exactly
// one changeset that says precisely what it did (none for a mutation that changes
// nothing), a new subscriber first gets the current contents as insertions, and a mirror
// that applies every changeset equals the array.

private typealias Change = CollectionChange<String>
private typealias Edit = CollectionChange<String>.Edit

/// A model holding an array, as SPEC section 3b writes it.
private final class Board: KeyValueObservable {
    let tasks = ObservableArray<String>()
}

/// Equatable, not Hashable: compared without inferring moves.
private struct Tag: Equatable {
    let name: String
}

/// Neither Equatable nor Hashable: cannot be compared at all.
private struct Opaque {
    let name: String
}

/// Subscribes a sink that logs every changeset, and checks each against a mirror.
private final class ArrayWatch: Sendable {
    let log = LockedLog<Change>()
    let mirror = Locked<[String]>([])
    let mismatches = LockedLog<String>()
    let cancellable: AnyCancellable

    init(_ array: ObservableArray<String>) {
        let (log, mirror, mismatches) = (log, mirror, mismatches)
        cancellable = array.changes.sink { change in
            log.append(change)
            mirror.withLock { mirror in
                mirror = mirror.applying(change)
                if mirror != change.collection { mismatches.append("\(mirror) != \(change.collection)") }
            }
        }
    }

    var changes: [Change] { log.items }
    var edits: [[Edit]] { log.items.map(\.changes) }
}

@Suite("Observation: ObservableArray")
struct ObservableArrayTests {
    /// Runs `action` and expects exactly one changeset, with `edits` and `collection`.
    private func expectOne(
        _ watch: ArrayWatch, _ edits: [Edit], _ collection: [String],
        sourceLocation: SourceLocation = #_sourceLocation, _ action: () -> Void
    ) {
        let before = watch.log.count
        action()
        #expect(Array(watch.changes.dropFirst(before)) == [Change(collection: collection, changes: edits)],
                sourceLocation: sourceLocation)
        #expect(watch.mirror.value == collection, sourceLocation: sourceLocation)
    }

    /// Runs `action` and expects nothing sent.
    private func expectNone(
        _ watch: ArrayWatch, sourceLocation: SourceLocation = #_sourceLocation, _ action: () -> Void
    ) {
        let before = watch.log.count
        action()
        #expect(watch.log.count == before, "sent \(watch.changes.dropFirst(before))", sourceLocation: sourceLocation)
    }

    // MARK: The spec's example

    @Test func theSpecExampleBehavesAsCommented() {
        let board = Board()
        let printed = LockedLog<String>()
        let changes = board.tasks.changes.sink { change in printed.append(String(describing: change.changes)) }
        let mirror = ["a"].applying(CollectionChange(collection: ["a", "b"], changes: [.insert("b", at: 1)]))
        #expect(mirror == ["a", "b"])
        #expect(printed.items == [])   // empty: no first changeset
        board.tasks.append("write the spec")
        #expect(printed.items == [#"[.insert("write the spec", at: 0)]"#])
        board.tasks.batchUpdates { $0.remove(at: 0); $0.append("ship it") }   // one changeset
        #expect(printed.items == [#"[.insert("write the spec", at: 0)]"#, #"[.update("ship it", at: 0)]"#])
        #expect(board.tasks.elements == ["ship it"])
        withExtendedLifetime(changes) {}
    }

    @Test func editsPrintAsSource() {
        #expect(String(describing: Edit.insert("write the spec", at: 0)) == #".insert("write the spec", at: 0)"#)
        #expect(String(describing: Edit.delete(at: 2)) == ".delete(at: 2)")
        #expect(String(describing: Edit.update("x", at: 1)) == #".update("x", at: 1)"#)
        #expect(String(describing: Edit.move(from: 0, to: 3)) == ".move(from: 0, to: 3)")
        #expect(String(describing: [Edit.delete(at: 0), .insert("a", at: 0)]) == #"[.delete(at: 0), .insert("a", at: 0)]"#)
        #expect(String(reflecting: Change(collection: ["a"], changes: [.insert("a", at: 0)]))
                == #"CollectionChange(collection: ["a"], changes: [.insert("a", at: 0)])"#)
    }

    // MARK: Array.applying

    @Test func applyingReplaysEveryKindOfEdit() {
        let base = ["a", "b", "c", "d"]
        func apply(_ edits: [Edit]) -> [String] { base.applying(Change(collection: [], changes: edits)) }
        #expect(apply([]) == base)
        #expect(apply([.insert("x", at: 0)]) == ["x", "a", "b", "c", "d"])
        #expect(apply([.insert("x", at: 4)]) == ["a", "b", "c", "d", "x"])
        #expect(apply([.delete(at: 1)]) == ["a", "c", "d"])
        #expect(apply([.update("x", at: 3)]) == ["a", "b", "c", "x"])
        #expect(apply([.move(from: 0, to: 3)]) == ["b", "c", "d", "a"])   // forward: `to` counts without it
        #expect(apply([.move(from: 3, to: 0)]) == ["d", "a", "b", "c"])   // backward
        #expect(apply([.move(from: 1, to: 1)]) == base)
        // In order: each index is as the edits before it left the array.
        #expect(apply([.delete(at: 0), .delete(at: 0), .insert("x", at: 1), .move(from: 2, to: 0), .update("y", at: 1)])
                == ["d", "y", "x"])
    }

    // MARK: Each mutation's changeset

    @Test func eachMutationSendsExactlyOneChangesetDescribingIt() {
        let array: ObservableArray = ["a", "b", "c"]
        let watch = ArrayWatch(array)
        #expect(watch.edits == [[.insert("a", at: 0), .insert("b", at: 1), .insert("c", at: 2)]])
        expectOne(watch, [.insert("d", at: 3)], ["a", "b", "c", "d"]) { array.append("d") }
        expectOne(watch, [.insert("x", at: 1)], ["a", "x", "b", "c", "d"]) { array.insert("x", at: 1) }
        expectOne(watch, [.delete(at: 0)], ["x", "b", "c", "d"]) { #expect(array.remove(at: 0) == "a") }
        expectOne(watch, [.update("y", at: 1)], ["x", "y", "c", "d"]) { array[1] = "y" }
        // Two replaced by three: two updates, one insertion.
        expectOne(watch, [.update("p", at: 0), .update("q", at: 1), .insert("r", at: 2)], ["p", "q", "r", "c", "d"]) {
            array.replaceSubrange(0..<2, with: ["p", "q", "r"])
        }
        // Three replaced by one: one update, two deletions, highest first.
        expectOne(watch, [.update("z", at: 1), .delete(at: 3), .delete(at: 2)], ["p", "z", "d"]) {
            array.replaceSubrange(1..<4, with: ["z"])
        }
        expectOne(watch, [.insert("e", at: 3), .insert("f", at: 4)], ["p", "z", "d", "e", "f"]) {
            array.append(contentsOf: ["e", "f"])
        }
        expectOne(watch, [.insert("g", at: 1), .insert("h", at: 2)], ["p", "g", "h", "z", "d", "e", "f"]) {
            array.insert(contentsOf: ["g", "h"], at: 1)
        }
        expectOne(watch, [.delete(at: 2), .delete(at: 1)], ["p", "z", "d", "e", "f"]) { array.removeSubrange(1..<3) }
        expectOne(watch, [.delete(at: 0)], ["z", "d", "e", "f"]) { #expect(array.removeFirst() == "p") }
        expectOne(watch, [.delete(at: 3)], ["z", "d", "e"]) { #expect(array.removeLast() == "f") }
        expectOne(watch, [.update("e", at: 0), .update("z", at: 2)], ["e", "d", "z"]) { array.swapAt(2, 0) }
        expectOne(watch, [.insert("i", at: 3), .insert("j", at: 4)], ["e", "d", "z", "i", "j"]) { array += ["i", "j"] }
        expectOne(watch, [.delete(at: 1), .delete(at: 0)], ["z", "i", "j"]) { array.removeFirst(2) }
        expectOne(watch, [.delete(at: 2)], ["z", "i"]) { #expect(array.popLast() == "j") }
        expectOne(watch, [.update("k", at: 0)], ["k", "i"]) { array[0..<1] = ["k"] }
        expectOne(watch, [.insert("l", at: 2), .insert("m", at: 3)], ["k", "i", "l", "m"]) {
            array.append(contentsOf: ["l", "m"])
        }
        expectOne(watch, [.delete(at: 3), .delete(at: 2)], ["k", "i"]) { array.removeLast(2) }
        expectOne(watch, [.insert("n", at: 2), .insert("o", at: 3)], ["k", "i", "n", "o"]) {
            array.append(contentsOf: ["n", "o"])
        }
        expectOne(watch, [.delete(at: 3), .delete(at: 1)], ["k", "n"]) { array.removeAll { $0 == "i" || $0 == "o" } }
        expectOne(watch, [.delete(at: 1), .delete(at: 0)], []) { array.removeAll() }
        #expect(watch.mismatches.items == [])
    }

    @Test func aChangesetKeptByASubscriberStaysAsItWasDelivered() {
        // A change reuses the edits buffer of the one before once nobody holds it: one
        // that a subscriber kept must not change.
        let array = ObservableArray<String>()
        var kept: [Change] = []
        var index = 0
        let keeper = array.changes.sink { change in
            if index % 2 == 0 { kept.append(change) }
            index += 1
        }
        var counted: [Int] = []
        let counter = array.changes.sink { counted.append($0.changes.count) }
        for letter in ["a", "b", "c", "d", "e"] { array.append(letter) }
        #expect(array.remove(at: 0) == "a")
        #expect(kept.map(\.changes) == [[.insert("a", at: 0)], [.insert("c", at: 2)], [.insert("e", at: 4)]])
        #expect(kept.map(\.collection) == [["a"], ["a", "b", "c"], ["a", "b", "c", "d", "e"]])
        #expect(counted == [1, 1, 1, 1, 1, 1])
        withExtendedLifetime((keeper, counter)) {}
    }

    @Test func standardLibraryAlgorithmsThroughContiguousStorageSendOneChangeset() {
        let array: ObservableArray = ["c", "a", "b"]
        let watch = ArrayWatch(array)
        // The same array, through generic code: the protocol's `mutating` methods.
        func sorted<C: MutableCollection & RandomAccessCollection>(
            _ collection: inout C, by areInIncreasingOrder: (C.Element, C.Element) -> Bool
        ) { collection.sort(by: areInIncreasingOrder) }
        func appended<C: RangeReplaceableCollection>(_ collection: inout C, _ tail: [C.Element]) { collection += tail }
        var reference = array
        expectOne(watch, [.move(from: 0, to: 2)], ["a", "b", "c"]) { sorted(&reference, by: <) }
        expectOne(watch, [.move(from: 2, to: 0)], ["c", "a", "b"]) {
            sorted(&reference) { ($0 == "c") != ($1 == "c") ? $0 == "c" : $0 < $1 }
        }
        expectOne(watch, [.insert("d", at: 3)], ["c", "a", "b", "d"]) { appended(&reference, ["d"]) }
        #expect(reference.elements == array.elements)
        #expect(Array(array) == ["c", "a", "b", "d"])
        #expect(watch.mismatches.items == [])
    }

    /// The reordering algorithms are methods of the array, callable on a `let` (as a
    /// model holds it), each sending one changeset (issue: only the standard library's
    /// `mutating` ones existed, which a `let` cannot call).
    @Test func reorderingALetArraySendsOneChangesetEach() {
        let array: ObservableArray = ["c", "a", "b"]
        let watch = ArrayWatch(array)
        /// One changeset, whose collection is `expected`.
        func expectOneChangeset(_ expected: [String], _ action: () -> Void) {
            let before = watch.log.count
            action()
            #expect(watch.log.count == before + 1)
            #expect(watch.changes.last?.collection == expected)
        }
        expectOne(watch, [.move(from: 0, to: 2)], ["a", "b", "c"]) { array.sort() }
        expectOne(watch, [.move(from: 2, to: 0)], ["c", "a", "b"]) {
            array.sort { ($0 == "c") != ($1 == "c") ? $0 == "c" : $0 < $1 }
        }
        expectOneChangeset(["b", "a", "c"]) { array.reverse() }
        var pivot = -1
        expectOneChangeset(["c", "a", "b"]) { pivot = array.partition { $0 != "c" } }
        #expect(pivot == 1)
        var generator = RelRandom(seed: 7)
        let (before, order) = (watch.log.count, array.elements)
        array.shuffle(using: &generator)
        #expect(watch.log.count == before + (array.elements == order ? 0 : 1))
        expectNone(watch) { array.sort { _, _ in false } }   // the order stays: nothing sent
        #expect(watch.mirror.value == array.elements)
        #expect(watch.mismatches.items == [])
    }

    @Test func mutationsThatChangeNothingSendNothing() {
        let array: ObservableArray = ["a", "b"]
        let watch = ArrayWatch(array)
        #expect(watch.log.count == 1)
        expectNone(watch) { array.append(contentsOf: []) }
        expectNone(watch) { array.insert(contentsOf: [], at: 1) }
        expectNone(watch) { array.replaceSubrange(1..<1, with: []) }
        expectNone(watch) { array.removeSubrange(2..<2) }
        expectNone(watch) { array.removeFirst(0) }
        expectNone(watch) { array.removeLast(0) }
        expectNone(watch) { array.removeAll { _ in false } }
        expectNone(watch) { array.swapAt(1, 1) }
        expectNone(watch) { array.reserveCapacity(100) }
        expectNone(watch) { array.batchUpdates { _ in } }
        expectNone(watch) { array.batchUpdates { $0.append("x"); $0.removeLast() } }
        expectNone(watch) { array.replace(with: ["a", "b"]) }
        expectNone(watch) { array += [String]() }
        let empty = ObservableArray<String>()
        let emptyWatch = ArrayWatch(empty)
        expectNone(emptyWatch) { empty.removeAll() }
        expectNone(emptyWatch) { #expect(empty.popLast() == nil) }
        expectNone(emptyWatch) { empty.replace(with: []) }
        #expect(emptyWatch.log.count == 0)
    }

    // MARK: batchUpdates and replace(with:)

    @Test func batchUpdatesSendsExactlyOneChangeset() {
        let array: ObservableArray = ["a", "b", "c", "d"]
        let watch = ArrayWatch(array)
        // The removal of "d" and the insertion of "x" meet at one place: one update.
        expectOne(watch, [.delete(at: 0), .update("x", at: 2), .insert("y", at: 3)], ["b", "c", "x", "y"]) {
            array.batchUpdates { elements in
                elements.removeFirst()
                elements.removeLast()
                elements.append("x")
                elements.append("y")
            }
        }
        #expect(watch.mismatches.items == [])
    }

    @Test func batchUpdatesThatThrowsChangesNothing() {
        let array: ObservableArray = ["a"]
        let watch = ArrayWatch(array)
        #expect(throws: TestError.self) {
            try array.batchUpdates { elements in
                elements.append("b")
                throw TestError.boom
            }
        }
        #expect(array.elements == ["a"])
        #expect(watch.log.count == 1)
    }

    /// Another thread's change while the body runs: the body runs again, on the new
    /// contents, and its result is sent as one changeset after that change.
    @Test func batchUpdatesRunsAgainAfterAnotherThreadsChange() {
        let array: ObservableArray = ["a"]
        let watch = ArrayWatch(array)
        let runs = Locked(0)
        array.batchUpdates { elements in
            runs.value += 1
            if runs.value == 1 { runOnAnotherThread { array.append("x") } }
            elements.append("b")
        }
        #expect(runs.value == 2)
        #expect(array.elements == ["a", "x", "b"])
        #expect(watch.edits.dropFirst() == [[.insert("x", at: 1)], [.insert("b", at: 2)]])
    }

    /// The body changing the array itself (not its argument) would change it again on
    /// every run: it stops the program with a message naming the fix.
    @Test func batchUpdatesThatChangesTheArrayItselfIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let array: ObservableArray = ["a"]
            array.batchUpdates { elements in
                array.append("x")
                elements.append("b")
            }
        }
        let message = standardError(of: result)
        #expect(message.contains("changed from inside its own batchUpdates"), "\(message)")
        #expect(message.contains("edit the array the closure is given instead"), "\(message)")
    }

    @Test func replaceSendsMinimalDifferences() {
        let array: ObservableArray = ["a", "b", "c"]
        let watch = ArrayWatch(array)
        expectOne(watch, [.delete(at: 1), .insert("d", at: 2)], ["a", "c", "d"]) { array.replace(with: ["a", "c", "d"]) }
        expectOne(watch, [.update("x", at: 1)], ["a", "x", "d"]) { array.replace(with: ["a", "x", "d"]) }
        expectOne(watch, [.move(from: 2, to: 0)], ["d", "a", "x"]) { array.replace(with: ["d", "a", "x"]) }
        expectOne(watch, [.move(from: 0, to: 2)], ["a", "x", "d"]) { array.replace(with: ["a", "x", "d"]) }
        // A reversal keeps one element: the other two move.
        expectOne(watch, [.move(from: 1, to: 2), .move(from: 0, to: 2)], ["d", "x", "a"]) {
            array.replace(with: ["d", "x", "a"])
        }
        expectOne(watch, [.insert("p", at: 0), .delete(at: 2), .insert("q", at: 3)], ["p", "d", "a", "q"]) {
            array.replace(with: ["p", "d", "a", "q"])
        }
        #expect(watch.mismatches.items == [])
    }

    @Test func elementsThatAreOnlyEquatableDiffWithoutMoves() {
        let array = ObservableArray([Tag(name: "a"), Tag(name: "b"), Tag(name: "c")])
        let log = LockedLog<CollectionChange<Tag>>()
        let c = array.changes.sink { log.append($0) }
        array.replace(with: [Tag(name: "c"), Tag(name: "a"), Tag(name: "b")])
        #expect(log.items.last?.changes == [.insert(Tag(name: "c"), at: 0), .delete(at: 3)])
        array.replace(with: [Tag(name: "c"), Tag(name: "x"), Tag(name: "b")])
        #expect(log.items.last?.changes == [.update(Tag(name: "x"), at: 1)])
        #expect(log.count == 3)
        withExtendedLifetime(c) {}
    }

    @Test func elementsThatCannotBeComparedAreRewrittenByPosition() {
        let array = ObservableArray([Opaque(name: "a"), Opaque(name: "b"), Opaque(name: "c")])
        let log = LockedLog<[String]>()
        let c = array.changes.sink { change in
            log.append(change.changes.map { edit in
                switch edit {
                case .insert(let element, let index): "insert \(element.name) \(index)"
                case .delete(let index): "delete \(index)"
                case .update(let element, let index): "update \(element.name) \(index)"
                case .move(let from, let to): "move \(from) \(to)"
                }
            })
        }
        array.replace(with: [Opaque(name: "x")])
        array.batchUpdates { $0.append(Opaque(name: "y")) }
        #expect(log.items == [["insert a 0", "insert b 1", "insert c 2"], ["update x 0", "delete 2", "delete 1"],
                              ["update x 0", "insert y 1"]])
        withExtendedLifetime(c) {}
    }

    @Test func genericCodeDiffsAsConcreteCodeDoes() {
        func replaceInGenericCode<T>(_ array: ObservableArray<T>, with elements: [T]) { array.replace(with: elements) }
        let array: ObservableArray = ["a", "b", "c"]
        let watch = ArrayWatch(array)
        expectOne(watch, [.move(from: 2, to: 0)], ["c", "a", "b"]) { replaceInGenericCode(array, with: ["c", "a", "b"]) }
    }

    // MARK: Subscribing

    @Test func aNewSubscriberFirstGetsTheContentsAsInsertions() {
        let array: ObservableArray = ["a", "b"]
        let watch = ArrayWatch(array)
        #expect(watch.changes == [Change(collection: ["a", "b"], changes: [.insert("a", at: 0), .insert("b", at: 1)])])
        let empty = ObservableArray<String>()
        let emptyWatch = ArrayWatch(empty)
        #expect(emptyWatch.changes == [])
        empty.append("a")
        #expect(emptyWatch.changes == [Change(collection: ["a"], changes: [.insert("a", at: 0)])])
    }

    @Test func aSubscriberWithFiniteDemandGetsWhatWaitedMergedIntoOne() {
        let array: ObservableArray = ["a"]
        let recorder = TestRecorder<Change, Never>(initialDemand: .max(1))
        array.changes.subscribe(recorder)
        #expect(recorder.events == [.value(Change(collection: ["a"], changes: [.insert("a", at: 0)]))])
        array.append("b")
        array[0] = "x"
        #expect(recorder.events.count == 1)   // no demand: it waits
        recorder.request(.max(1))
        #expect(recorder.events.last == .value(Change(collection: ["x", "b"], changes: [.insert("b", at: 1), .update("x", at: 0)])))
        recorder.request(.max(2))
        array.append("c")
        array.remove(at: 0)
        array.append("d")
        #expect(recorder.values.dropFirst(2).map(\.changes) == [[.insert("c", at: 2)], [.delete(at: 0)]])
        recorder.request(.max(1))
        #expect(recorder.values.last == Change(collection: ["b", "c", "d"], changes: [.insert("d", at: 2)]))
        #expect(recorder.violations == [])
        recorder.cancel()
        array.append("e")
        #expect(recorder.values.count == 5)
    }

    @Test func aSubscriberWithoutDemandGetsNothingUntilItAsks() {
        let array: ObservableArray = ["a"]
        let recorder = TestRecorder<Change, Never>(initialDemand: .none)
        array.changes.subscribe(recorder)
        array.append("b")
        #expect(recorder.events == [])
        recorder.request(.unlimited)
        array.append("c")
        #expect(recorder.values.map(\.changes) == [[.insert("a", at: 0), .insert("b", at: 1)], [.insert("c", at: 2)]])
        #expect(recorder.violations == [])
    }

    @Test func cancellingStopsDeliveryAndReleasesTheClosure() {
        let array = ObservableArray<String>()
        let log = LockedLog<Change>()
        weak var weakCanary: Canary?
        let c: AnyCancellable
        do {
            let canary = Canary()
            weakCanary = canary
            c = array.changes.sink { [canary] change in
                canary.touch()
                log.append(change)
            }
        }
        array.append("a")
        c.cancel()
        #expect(weakCanary == nil)
        array.append("b")
        #expect(log.items.map(\.changes) == [[.insert("a", at: 0)]])
    }

    /// A sink cancelled from inside another sink's callback, while the change is being
    /// delivered, gets nothing more: not the rest of that change, not the next one.
    @Test func aSinkCancelledDuringADeliveryGetsNothingMore() {
        let array = ObservableArray<String>()
        let second = LockedLog<Change>()
        let secondCancellable = Locked<AnyCancellable?>(nil)
        let first = array.changes.sink { change in
            if change.collection == ["a", "b"] { secondCancellable.value?.cancel() }
        }
        secondCancellable.value = array.changes.sink { second.append($0) }
        array.append("a")
        array.append("b")   // the first sink cancels the second before it is reached
        array.append("c")
        #expect(second.items.map(\.changes) == [[.insert("a", at: 0)]])
        withExtendedLifetime(first) {}
    }

    @Test func releasingTheArrayFinishesItsSubscribersAndNothingKeepsItAlive() {
        let recorder = TestRecorder<Change, Never>()
        weak var weakArray: ObservableArray<String>?
        weak var weakCanary: Canary?
        var cancellable: AnyCancellable?
        do {
            let canary = Canary()
            weakCanary = canary
            let array: ObservableArray = ["a"]
            weakArray = array
            array.changes.subscribe(recorder)
            cancellable = array.changes.sink { [canary] _ in canary.touch() }
            array.append("b")
        }
        #expect(weakArray == nil)
        #expect(recorder.events == [
            .value(Change(collection: ["a"], changes: [.insert("a", at: 0)])),
            .value(Change(collection: ["a", "b"], changes: [.insert("b", at: 1)])),
            .finished,
        ])
        #expect(weakCanary == nil)   // the sink's closure went with the array
        withExtendedLifetime(cancellable) {}
    }

    @Test func anEditFromInsideACallbackIsDeliveredAfterTheCurrentChangeset() {
        let array = ObservableArray<String>()
        let other = ArrayWatch(array)
        let log = LockedLog<Change>()
        let c = array.changes.sink { change in
            log.append(change)
            if change.collection == ["a"] { array.append("b") }
            if change.collection == ["a", "b"] { array[0] = "c" }
        }
        array.append("a")
        #expect(log.items.map(\.changes) == [[.insert("a", at: 0)], [.insert("b", at: 1)], [.update("c", at: 0)]])
        #expect(other.edits == log.items.map(\.changes))
        #expect(other.mirror.value == ["c", "b"])
        #expect(array.elements == ["c", "b"])
        withExtendedLifetime(c) {}
    }

    @Test func anEditFromInsideTheFirstChangesetIsDeliveredAfterIt() {
        let array: ObservableArray = ["a"]
        let log = LockedLog<Change>()
        let c = array.changes.sink { change in
            log.append(change)
            if log.count == 1 { array.append("b") }
        }
        #expect(log.items == [
            Change(collection: ["a"], changes: [.insert("a", at: 0)]),
            Change(collection: ["a", "b"], changes: [.insert("b", at: 1)]),
        ])
        withExtendedLifetime(c) {}
    }

    @Test func subscribingFromInsideACallbackGetsTheContentsThenLaterChanges() {
        let array: ObservableArray = ["a"]
        let late = LockedLog<Change>()
        let lateCancellable = Locked<AnyCancellable?>(nil)
        let c = array.changes.sink { change in
            if change.collection == ["a", "b"] {
                lateCancellable.value = array.changes.sink { late.append($0) }
                array.append("c")
            }
        }
        array.append("b")
        #expect(late.items == [
            Change(collection: ["a", "b"], changes: [.insert("a", at: 0), .insert("b", at: 1)]),
            Change(collection: ["a", "b", "c"], changes: [.insert("c", at: 2)]),
        ])
        withExtendedLifetime(c) {}
    }

    /// A subscriber joins while another thread delivers, and a change is made (and
    /// delivered, and that delivery over) while the new subscriber is still in its first
    /// callback: it must get that change next.
    @Test func aSubscriberJoiningWhileAnotherThreadDeliversMissesNothing() {
        let array = ObservableArray<Int>()
        let (delivering, releaseFirst, inFirstCallback, secondDelivered, releaseLate) =
            (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0),
             DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let early = array.changes.sink { change in
            if change.collection == [1] {
                delivering.signal()
                releaseFirst.wait()
            } else if change.collection == [1, 2] {
                secondDelivered.signal()
            }
        }
        let late = LockedLog<CollectionChange<Int>>()
        // Whether the first callback was still running when each changeset arrived: the
        // second must wait for it (one call at a time), not run on the delivering thread.
        let firstRunning = Locked(false)
        let overlapped = LockedLog<Bool>()
        let lateCancellable = Locked<AnyCancellable?>(nil)
        runConcurrently([
            { array.append(1) },   // delivers [1] to `early`, which waits
            {
                delivering.wait()
                lateCancellable.value = array.changes.sink { change in
                    overlapped.append(firstRunning.value)
                    late.append(change)
                    if late.count == 1 {
                        firstRunning.value = true
                        inFirstCallback.signal()
                        releaseLate.wait()
                        firstRunning.value = false
                    }
                }
            },
            {
                inFirstCallback.wait()
                array.append(2)   // queued for the delivering thread
                releaseFirst.signal()
                secondDelivered.wait()
                _ = eventually { !array.channel.isDelivering }
                releaseLate.signal()
            },
        ])
        #expect(late.items == [
            CollectionChange(collection: [1], changes: [.insert(1, at: 0)]),
            CollectionChange(collection: [1, 2], changes: [.insert(2, at: 1)]),
        ])
        #expect(overlapped.items == [false, false])
        withExtendedLifetime(early) {}
    }

    @MainActor @Test func aSinkMadeOnTheMainActorRunsOnTheMainThreadInOrder() async {
        let array: ObservableArray = ["a"]
        let log = LockedLog<[Edit]>()
        let onMain = LockedLog<Bool>()
        let c = array.changes.sink { change in
            onMain.append(MainThread.isCurrent)
            log.append(change.changes)
        }
        #expect(log.items == [[.insert("a", at: 0)]])   // the first changeset, at once
        runOnAnotherThread { array.append("b") }
        array.append("c")   // after "b", which waits on the main queue
        await drainMainQueue()
        #expect(log.items == [[.insert("a", at: 0)], [.insert("b", at: 1)], [.insert("c", at: 2)]])
        #expect(onMain.items == [true, true, true])
        withExtendedLifetime(c) {}
    }

    // MARK: Collection

    @Test func readsAndCollectionConformance() {
        let array = ObservableArray(["a", "b", "c"])
        #expect(array.count == 3)
        #expect(!array.isEmpty)
        #expect(array.startIndex == 0)
        #expect(array.endIndex == 3)
        #expect(array[1] == "b")
        #expect(Array(array[1..<3]) == ["b", "c"])
        #expect(array.first == "a")
        #expect(array.last == "c")
        #expect(array.map { $0.uppercased() } == ["A", "B", "C"])
        #expect(Array(array.reversed()) == ["c", "b", "a"])
        #expect(array.description == #"["a", "b", "c"]"#)
        var iterated: [String] = []
        for element in array {
            iterated.append(element)
            if iterated.count == 1 { array.append("d") }   // the iteration goes over a snapshot
        }
        #expect(iterated == ["a", "b", "c"])
        #expect(ObservableArray(repeating: "x", count: 2).elements == ["x", "x"])
        #expect(ObservableArray<Int>().isEmpty)
        let literal: ObservableArray = [1, 2]
        #expect(literal.elements == [1, 2])
    }

    @Test func everyReadIsTrackedAsADependency() {
        let array: ObservableArray = ["a"]
        let id = ObjectIdentifier(array.channel)
        let reads: [(String, (ObservableArray<String>) -> Void)] = [
            ("count", { _ = $0.count }), ("subscript", { _ = $0[0] }), ("startIndex", { _ = $0.startIndex }),
            ("endIndex", { _ = $0.endIndex }), ("elements", { _ = $0.elements }),
            ("makeIterator", { for _ in $0 {} }), ("isEmpty", { _ = $0.isEmpty }), ("first", { _ = $0.first }),
            ("slice", { _ = $0[0..<1] }),
        ]
        for (name, read) in reads {
            let (_, sources) = DependencyTracking.track { read(array) }
            #expect(sources.map { ObjectIdentifier($0) } == [id], "\(name)")
        }
    }
}
