import Testing
@testable import Bindings
import BindingsTestSupport

// `batchChanges`: one notification per changed key path at the end of the outermost
// batch, from the value before it to the value after it; never stale.

/// Sets another model when it goes.
final class BatchDepartingModel: KeyValueObservable {
    @Observed var value = 0
    let heir: ObsPerson
    init(heir: ObsPerson) { self.heir = heir }
    deinit { heir.count = 9 }
}

@Suite("Reactions: batchChanges")
struct BatchChangesTests {
    @Test func aComputedKeyPathSeesOnlyTheStateAfterTheBatch() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.fullName, options: [.old, .new]) { _, change in changes.append(change) }
        batchChanges {
            person.firstName = "Grace"
            person.lastName = "Hopper"
        }
        #expect(changes == [.set(new: "Grace Hopper", old: "Ada Lovelace")])
        withExtendedLifetime(token) {}
    }

    @Test func withoutABatchEverySetNotifies() {
        let person = ObsPerson()
        var values: [String] = []
        let token = person.observe(\.fullName, options: [.new]) { _, change in values.append(change.newValue!) }
        person.firstName = "Grace"
        person.lastName = "Hopper"
        #expect(values == ["Grace Lovelace", "Grace Hopper"])
        withExtendedLifetime(token) {}
    }

    @Test func readsInsideTheBatchSeeNewValuesAndNoObserverRuns() {
        let person = ObsPerson()
        var values: [String] = []
        let cancellable = person.$firstName.sink { values.append($0) }
        batchChanges {
            person.firstName = "Grace"
            #expect(person.firstName == "Grace")
            #expect(person.fullName == "Grace Lovelace")
            #expect(values == ["Ada"])
            person.firstName = "Joan"
        }
        #expect(values == ["Ada", "Joan"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func oneNotificationPerKeyPathWithOldFromBeforeTheBatch() {
        let person = ObsPerson()
        var counts: [KeyValueObservedChange<Int>] = []
        let token = person.observe(\.count, options: [.old, .new]) { _, change in counts.append(change) }
        batchChanges {
            for value in 1...5 { person.count = value }
        }
        #expect(counts == [.set(new: 5, old: 0)])
        withExtendedLifetime(token) {}
    }

    @Test func anObserverWantingOldAddedAfterTheFirstSetGetsTheValueWhenItJoined() {
        // The first set kept no old value (nobody wanted one); the observer added after
        // it, which asks for old values, gets the value it joined at.
        let person = ObsPerson()
        let earlier = recordSets(person, \.count)
        var counts: [KeyValueObservedChange<Int>] = []
        var late: KeyValueObservation?
        batchChanges {
            person.count = 1
            late = person.observe(\.count, options: [.old, .new]) { _, change in counts.append(change) }
            person.count = 2
        }
        #expect(counts == [.set(new: 2, old: 1)])
        #expect(earlier.values == [2])
        withExtendedLifetime(late) {}
    }

    @Test func anObserverWantingOldAddedAfterTheLastSetGetsItsOldValueToo() {
        // Added after the batch's only set: the batch's notification reaches it, with the
        // value it joined at as the old value (the same as the new one), never nil.
        let person = ObsPerson()
        let earlier = recordSets(person, \.count)
        var counts: [KeyValueObservedChange<Int>] = []
        var late: KeyValueObservation?
        batchChanges {
            person.count = 1
            late = person.observe(\.count, options: [.initial, .old, .new]) { _, change in counts.append(change) }
        }
        #expect(counts == [.set(new: 1, old: nil), .set(new: 1, old: 1)])
        #expect(earlier.values == [1])
        withExtendedLifetime(late) {}
    }

    @Test func keyPathsAndReactionsReadingAnArrayWaitForTheEndOfTheBatch() {
        // The array's own `changes` get each edit at once; a key path over the array and
        // a stored property, and a reaction reading both, get one notification and one
        // run, with every change of the batch.
        let board = ArrayBoard()
        var runs: [String] = []
        var matching: [KeyValueObservedChange<[String]>] = []
        var changesets: [[CollectionChange<String>.Edit]] = []
        let reaction = autorun { runs.append("\(board.filter) \(board.tasks.count)") }
        let token = board.observe(\.matching, options: [.old, .new]) { _, change in matching.append(change) }
        let sink = board.tasks.changes.sink { changesets.append($0.changes) }   // empty: no first changeset
        batchChanges {
            board.filter = "x"
            board.tasks.append("x1")
            #expect(changesets == [[.insert("x1", at: 0)]])
            board.tasks.append("y")
            #expect(runs == [" 0"])
            #expect(matching == [])
        }
        #expect(runs == [" 0", "x 2"])
        #expect(matching == [.set(new: ["x1"], old: [])])
        #expect(changesets == [[.insert("x1", at: 0)], [.insert("y", at: 1)]])
        withExtendedLifetime((reaction, token, sink)) {}
    }

    @Test func anArraysKeyPathGetsOneSettingForTheEditsOfABatch() {
        let board = ArrayBoard()
        var kinds: [String] = []
        let token = board.observe(\.tasks, options: [.new]) { _, change in
            kinds.append("\(change.kind) \(change.newValue!.elements)")
        }
        batchChanges {
            board.tasks.append("a")
            board.tasks.append("b")
        }
        board.tasks.append("c")
        #expect(kinds == ["setting [\"a\", \"b\"]", "insertion [\"a\", \"b\", \"c\"]"])
        withExtendedLifetime(token) {}
    }

    @Test func anArrayEditedByAnObserverDuringTheFlushIsSeenInTheSameFlush() {
        // Never stale: the flush delivers the edit an observer makes while it runs.
        let board = ArrayBoard()
        var counts: [Int] = []
        let count = board.publisher(for: \.tasks.count).sink { counts.append($0) }
        let echo = board.observe(\.filter, options: [.new]) { board, change in board.tasks.append(change.newValue!) }
        batchChanges { board.filter = "f" }
        #expect(counts == [0, 1])
        #expect(board.tasks.elements == ["f"])
        withExtendedLifetime((count, echo)) {}
    }

    @Test func keyPathsAreNotifiedInTheOrderTheyFirstChanged() {
        let person = ObsPerson()
        var log: [String] = []
        let tokens = [
            person.observe(\.lastName, options: [.new]) { _, change in log.append("last \(change.newValue!)") },
            person.observe(\.count, options: [.new]) { _, change in log.append("count \(change.newValue!)") },
            person.observe(\.firstName, options: [.new]) { _, change in log.append("first \(change.newValue!)") },
        ]
        batchChanges {
            person.count = 1
            person.firstName = "Grace"
            person.count = 2
            person.lastName = "Hopper"
        }
        #expect(log == ["count 2", "first Grace", "last Hopper"])
        withExtendedLifetime(tokens) {}
    }

    @Test func nestedBatchesJoinTheOutermost() {
        let person = ObsPerson()
        var values: [String] = []
        let token = person.observe(\.fullName, options: [.new]) { _, change in values.append(change.newValue!) }
        batchChanges {
            person.firstName = "Grace"
            batchChanges { person.lastName = "Hopper" }
            #expect(values.isEmpty)
            person.lastName = "Murray"
        }
        #expect(values == ["Grace Murray"])
        withExtendedLifetime(token) {}
    }

    @Test func priorNoticeComesOnceBeforeTheFirstChange() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<Int>] = []
        let token = person.observe(\.count, options: [.old, .new, .prior]) { _, change in changes.append(change) }
        var seenInside: [KeyValueObservedChange<Int>] = []
        batchChanges {
            person.count = 1
            seenInside = changes
            person.count = 2
            person.count = 3
        }
        #expect(seenInside == [.prior(old: 0)])
        #expect(changes == [.prior(old: 0), .set(new: 3, old: 0)])
        withExtendedLifetime(token) {}
    }

    @Test func computedPriorNoticeComesOnceToo() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.fullName, options: [.old, .new, .prior]) { _, change in changes.append(change) }
        batchChanges {
            person.firstName = "Grace"
            person.lastName = "Hopper"
        }
        #expect(changes == [.prior(old: "Ada Lovelace"), .set(new: "Grace Hopper", old: "Ada Lovelace")])
        withExtendedLifetime(token) {}
    }

    @Test func aSetFromACallbackDuringTheFlushIsDeliveredAfterTheCurrentOne() {
        let person = ObsPerson()
        let other = ObsPerson()
        var log: [String] = []
        let tokens = [
            person.observe(\.firstName, options: [.new]) { _, change in
                log.append("person \(change.newValue!)")
                other.count = 7
                log.append("set other")
            },
            person.observe(\.lastName, options: [.new]) { _, change in log.append("person last \(change.newValue!)") },
            other.observe(\.count, options: [.new]) { _, change in log.append("other \(change.newValue!)") },
        ]
        batchChanges {
            person.firstName = "Grace"
            person.lastName = "Hopper"
        }
        #expect(log == ["person Grace", "set other", "person last Hopper", "other 7"])
        withExtendedLifetime(tokens) {}
    }

    @Test func neverStaleWhenAnObserverSetsTheSamePropertyDuringTheFlush() {
        let person = ObsPerson()
        var first: [Int] = []
        var second: [Int] = []
        let t1 = person.observe(\.count, options: [.new]) { person, change in
            first.append(change.newValue!)
            if change.newValue! < 3 { person.count = change.newValue! + 1 }
        }
        let t2 = person.observe(\.count, options: [.new]) { _, change in second.append(change.newValue!) }
        batchChanges { person.count = 1 }
        #expect(first == [1, 2, 3])
        #expect(second == [1, 2, 3])
        #expect(person.count == 3)
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func aDependencySetDuringTheFlushBeforeTheEvaluationIsSeenByIt() {
        let person = ObsPerson()
        var names: [String] = []
        let t1 = person.observe(\.count, options: [.new]) { person, _ in person.lastName = "Murray" }
        let t2 = person.observe(\.fullName, options: [.new]) { _, change in names.append(change.newValue!) }
        batchChanges {
            person.count = 1
            person.firstName = "Grace"
        }
        // `count` is delivered first; its observer sets `lastName` before `firstName`'s
        // delivery evaluates the full name, which sees both.
        #expect(names == ["Grace Murray"])
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func aDependencySetDuringTheFlushAfterTheEvaluationEvaluatesAgain() {
        let person = ObsPerson()
        var names: [String] = []
        // Observed first: its link with `firstName` comes before the observer below.
        let t1 = person.observe(\.fullName, options: [.new]) { _, change in names.append(change.newValue!) }
        let t2 = person.observe(\.firstName, options: [.new]) { person, _ in person.lastName = "Murray" }
        batchChanges { person.firstName = "Grace" }
        #expect(names == ["Grace Lovelace", "Grace Murray"])
        #expect(names.last == person.fullName)
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func aChainChangedTwiceInOneBatchNotifiesOnce() {
        let person = ObsPerson()
        let newAddress = ObsAddress("Paris")
        var cities: [String] = []
        let cancellable = person.publisher(for: \.address.city).sink { cities.append($0) }
        batchChanges {
            person.address = newAddress
            newAddress.city = "Rome"
        }
        #expect(cities == ["London", "Rome"])
        newAddress.city = "Oslo"
        #expect(cities == ["London", "Rome", "Oslo"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func bindingsAndSinksGetOneValue() {
        let person = ObsPerson()
        var values: [String] = []
        let cancellable = person.publisher(for: \.fullName).sink { values.append($0) }
        batchChanges {
            person.firstName = "Grace"
            person.lastName = "Hopper"
        }
        #expect(values == ["Ada Lovelace", "Grace Hopper"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func aModelReleasedInsideTheBatchDeliversNothing() {
        var values: [String] = []
        var cancellable: AnyCancellable?
        batchChanges {
            let person = ObsPerson()
            cancellable = person.$firstName.sink { values.append($0) }
            person.firstName = "Grace"
        }
        #expect(values == ["Ada"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func anErrorStillDeliversWhatChangedAndPropagates() {
        let person = ObsPerson()
        var values: [Int] = []
        let cancellable = person.$count.sink { values.append($0) }
        #expect(throws: TestError.self) {
            try batchChanges {
                person.count = 4
                throw TestError.boom
            }
        }
        #expect(values == [0, 4])
        withExtendedLifetime(cancellable) {}
    }

    @Test func returnsTheBodysResult() {
        let person = ObsPerson()
        let name = batchChanges { () -> String in
            person.firstName = "Grace"
            return person.fullName
        }
        #expect(name == "Grace Lovelace")
    }

    @Test func anotherThreadsSetsAreNotHeld() {
        let person = ObsPerson()
        // Handed to the other thread while this one waits for it (its isolation moves).
        let other = UncheckedBox(ObsPerson())
        let values = LockedLog<Int>()
        let cancellable = other.value.$count.sink { values.append($0) }
        batchChanges {
            person.count = 1
            runOnAnotherThread { other.value.count = 5 }
        }
        #expect(values.items == [0, 5])
        withExtendedLifetime(cancellable) {}
    }

    @Test func aSetMadeByADeinitDuringTheBatchJoinsIt() {
        let heir = ObsPerson()
        var counts: [Int] = []
        let cancellable = heir.$count.sink { counts.append($0) }
        var values: [Int] = []
        batchChanges {
            let departing = BatchDepartingModel(heir: heir)
            let token = departing.$value.sink { values.append($0) }
            departing.value = 1
            heir.count = 3
            withExtendedLifetime(token) {}
        }
        // The departing model's change waited for a channel that its end closed.
        #expect(values == [0])
        #expect(counts == [0, 9])
        withExtendedLifetime(cancellable) {}
    }
}

@Suite("Reactions: batches on several threads at once")
struct BatchThreadTests {
    @Test func eachThreadsBatchHoldsOnlyItsOwnModels() {
        let rounds = 200
        let people = UncheckedBox([ObsPerson(), ObsPerson(), ObsPerson(), ObsPerson()])
        let logs = (0..<4).map { _ in LockedLog<String>() }
        let tokens = (0..<4).map { index in
            people.value[index].observe(\.fullName, options: [.new]) { _, change in logs[index].append(change.newValue!) }
        }
        // Each thread batches its own model (its isolation): its observer sees one
        // change per batch, never a half-changed name.
        runConcurrently(threads: 4) { index in
            let person = people.value[index]
            for round in 0..<rounds {
                batchChanges {
                    person.firstName = "F\(round)"
                    person.lastName = "L\(round)"
                }
            }
        }
        for index in 0..<4 {
            #expect(logs[index].items == (0..<rounds).map { "F\($0) L\($0)" })
        }
        withExtendedLifetime(tokens) {}
    }
}
