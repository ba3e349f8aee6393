import Testing
@testable import Bindings

// SPEC sections 2 and 8, the cost rules that can be checked in a debug build: what is
// not observed costs nothing, in-place mutation does not copy, and a set only touches
// its own property's channel.

final class ObsCell: KeyValueObservable {
    @Observed var value = 0
    var valueStorage: Observed<Int> { _value }
}

/// The address of an array's buffer.
private func bufferAddress(_ array: [String]) -> UnsafeRawPointer? {
    array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
}

@Suite("Observation: cost rules")
struct ObsCostTests {
    @Test func unobservedSetCreatesNoChannel() {
        let person = ObsPerson()
        person.firstName = "Grace"
        person.tags.append("x")
        person.count += 1
        _ = person.fullName
        #expect(!person.firstNameStorage.hasChannel)
        #expect(!person.tagsStorage.hasChannel)
        #expect(!person.countStorage.hasChannel)
        #expect(!person.lastNameStorage.hasChannel)
    }

    @Test func observingOnePropertyCreatesOnlyItsChannel() {
        let person = ObsPerson()
        let token = person.observe(\.firstName, options: [.new]) { _, _ in }
        person.lastName = "Byron"
        #expect(person.firstNameStorage.hasChannel)
        #expect(!person.lastNameStorage.hasChannel)
        withExtendedLifetime(token) {}
    }

    @Test func inPlaceMutationOfAnUnobservedArrayDoesNotCopy() {
        let person = ObsPerson()
        person.tags.reserveCapacity(64)
        let before = bufferAddress(person.tags)
        person.tags.append("x")
        person.tags[0] = "y"
        #expect(bufferAddress(person.tags) == before)
    }

    @Test func inPlaceMutationOfAnObservedArrayDoesNotCopy() {
        let person = ObsPerson()
        person.tags.reserveCapacity(64)
        var counts: [Int] = []
        let token = person.observe(\.tags, options: [.new]) { _, change in counts.append(change.newValue!.count) }
        var sinkCounts: [Int] = []
        let c = person.$tags.sink { sinkCounts.append($0.count) }
        let before = bufferAddress(person.tags)
        person.tags.append("x")
        person.tags.append("y")
        person.tags[0] = "z"
        #expect(bufferAddress(person.tags) == before)
        #expect(counts == [1, 2, 2])
        #expect(sinkCounts == [0, 1, 2, 2])
        #expect(person.tags == ["z", "y"])
        withExtendedLifetime((token, c)) {}
    }

    @Test func inPlaceMutationUnderAComputedObserverDoesNotCopy() {
        let person = ObsPerson()
        person.tags.reserveCapacity(64)
        var counts: [Int] = []
        let token = person.observe(\.tags.count, options: [.new]) { _, change in counts.append(change.newValue!) }
        let before = bufferAddress(person.tags)
        person.tags.append("x")
        person.tags.append("y")
        #expect(bufferAddress(person.tags) == before)
        #expect(counts == [1, 2])
        withExtendedLifetime(token) {}
    }

    @Test func askingForOldValuesCopiesAndStopsWhenThatObserverLeaves() {
        let person = ObsPerson()
        person.tags.reserveCapacity(64)
        var olds: [[String]] = []
        let token = person.observe(\.tags, options: [.old]) { _, change in olds.append(change.oldValue!) }
        person.tags.append("x")            // the old value is kept: a copy, as with KVO
        #expect(olds == [[]])
        token.invalidate()
        let before = bufferAddress(person.tags)
        person.tags.append("y")
        #expect(bufferAddress(person.tags) == before)
    }

    @Test func setOnOneOfAThousandObservedPropertiesTouchesOnlyItsChannel() {
        let cells = (0..<1_000).map { _ in ObsCell() }
        var calls: [Int] = []
        let tokens = cells.indices.map { index in
            cells[index].observe(\.value, options: [.new]) { _, _ in calls.append(index) }
        }
        let counters = cells.map { $0.valueStorage.countEvents() }
        cells[500].value = 1
        cells[500].value = 2
        #expect(calls == [500, 500])
        for (index, counter) in counters.enumerated() {
            #expect(counter?.count == (index == 500 ? 2 : 0))
        }
        withExtendedLifetime(tokens) {}
    }

    @Test func setOnOnePropertyOfAModelTouchesOnlyThatChannel() {
        let person = ObsPerson()
        let tokens = [
            person.observe(\.firstName) { _, _ in },
            person.observe(\.lastName) { _, _ in },
            person.observe(\.count) { _, _ in },
            person.observe(\.fullName) { _, _ in },
        ]
        let count = person.countStorage.countEvents()
        let firstName = person.firstNameStorage.countEvents()
        let lastName = person.lastNameStorage.countEvents()
        person.count = 3
        #expect([count?.count, firstName?.count, lastName?.count] == [1, 0, 0])
        withExtendedLifetime(tokens) {}
    }

    @Test func aPropertyWhoseObserversLeftSkipsSetsButNotANewObserver() {
        let person = ObsPerson()
        let first = person.$firstName.sink { _ in }
        first.cancel()
        person.firstName = "Grace"              // nobody reachable: no delivery at all
        var names: [String] = []
        var cancellables: [AnyCancellable] = []
        // Subscribed and set from inside another property's callback: the count goes
        // from 0 to 1 there, and the set that follows must reach the new observer.
        let trigger = person.$lastName.sink { last in
            guard last == "Byron" else { return }
            person.$firstName.sink { names.append($0) }.store(in: &cancellables)
            person.firstName = "Ada"
        }
        person.lastName = "Byron"
        person.firstName = "Augusta"
        #expect(names == ["Grace", "Ada", "Augusta"])
        withExtendedLifetime((trigger, cancellables)) {}
    }

    @Test func priorIsOnlySentWhenSomeoneAskedForIt() {
        let person = ObsPerson()
        let token = person.observe(\.count, options: [.new]) { _, _ in }
        let counter = person.countStorage.countEvents()
        person.count = 1
        #expect(counter?.count == 1, "a change, no prior notice")
        let prior = person.observe(\.count, options: [.prior]) { _, _ in }
        person.count = 2
        #expect(counter?.count == 3, "a prior notice and a change")
        prior.invalidate()
        person.count = 3
        #expect(counter?.count == 4)
        withExtendedLifetime(token) {}
    }
}
