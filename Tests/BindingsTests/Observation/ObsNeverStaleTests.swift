import Testing
@testable import Bindings

// SPEC section 6: each observer receives a property's values in the order they were set,
// and its last value is the current one, also when callbacks set the property again.

@Suite("Observation: never stale under re-entrancy")
struct ObsNeverStaleTests {
    @Test func firstObserverSetsAgainFromItsCallback() {
        let person = ObsPerson()
        var first: [String] = []
        var second: [String] = []
        let t1 = person.observe(\.firstName, options: [.new]) { person, change in
            first.append(change.newValue!)
            if change.newValue == "B" { person.firstName = "C" }
        }
        let t2 = person.observe(\.firstName, options: [.new]) { _, change in
            second.append(change.newValue!)
        }
        person.firstName = "B"
        #expect(first == ["B", "C"])
        #expect(second == ["B", "C"])
        #expect(person.firstName == "C")
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func oldValuesFollowTheSetOrderToo() {
        let person = ObsPerson()
        var first: [KeyValueObservedChange<String>] = []
        var second: [KeyValueObservedChange<String>] = []
        let t1 = person.observe(\.firstName, options: [.old, .new, .prior]) { person, change in
            first.append(change)
            if change.newValue == "B" { person.firstName = "C" }
        }
        let t2 = person.observe(\.firstName, options: [.old, .new, .prior]) { _, change in
            second.append(change)
        }
        person.firstName = "B"
        let expected: [KeyValueObservedChange<String>] = [
            .prior(old: "Ada"), .set(new: "B", old: "Ada"), .prior(old: "B"), .set(new: "C", old: "B"),
        ]
        #expect(first == expected)
        #expect(second == expected)
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func nestedSetsThreeDeep() {
        let person = ObsPerson()
        var first: [Int] = []
        var second: [Int] = []
        var third: [Int] = []
        let t1 = person.observe(\.count, options: [.new]) { person, change in
            first.append(change.newValue!)
            if change.newValue! < 3 { person.count = change.newValue! + 1 }
        }
        let t2 = person.observe(\.count, options: [.new]) { person, change in
            second.append(change.newValue!)
            if change.newValue! == 3 { person.count = 10 }
        }
        let t3 = person.observe(\.count, options: [.new]) { _, change in
            third.append(change.newValue!)
        }
        person.count = 1
        #expect(first == [1, 2, 3, 10])
        #expect(second == [1, 2, 3, 10])
        #expect(third == [1, 2, 3, 10])
        #expect(person.count == 10)
        withExtendedLifetime((t1, t2, t3)) {}
    }

    @Test func setFromTheInitialNotification() {
        let person = ObsPerson()
        var second: [String] = []
        let t2 = person.observe(\.firstName, options: [.initial, .new]) { _, change in
            second.append(change.newValue!)
        }
        var first: [String] = []
        let t1 = person.observe(\.firstName, options: [.initial, .new]) { person, change in
            first.append(change.newValue!)
            if change.newValue == "Ada" { person.firstName = "B" }
        }
        #expect(first == ["Ada", "B"])
        #expect(second == ["Ada", "B"])
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func computedKeyPath() {
        let person = ObsPerson()
        var first: [String] = []
        var second: [String] = []
        let t1 = person.observe(\.fullName, options: [.new]) { person, change in
            first.append(change.newValue!)
            if change.newValue == "Ada B" { person.lastName = "C" }
        }
        let t2 = person.observe(\.fullName, options: [.new]) { _, change in
            second.append(change.newValue!)
        }
        person.lastName = "B"
        #expect(first == ["Ada B", "Ada C"])
        #expect(second == ["Ada B", "Ada C"])
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func computedKeyPathWithOldValues() {
        let person = ObsPerson()
        var first: [KeyValueObservedChange<String>] = []
        var second: [KeyValueObservedChange<String>] = []
        let t1 = person.observe(\.fullName, options: [.old, .new]) { person, change in
            first.append(change)
            if change.newValue == "Ada B" { person.lastName = "C" }
        }
        let t2 = person.observe(\.fullName, options: [.old, .new]) { _, change in
            second.append(change)
        }
        person.lastName = "B"
        let expected: [KeyValueObservedChange<String>] = [
            .set(new: "Ada B", old: "Ada Lovelace"), .set(new: "Ada C", old: "Ada B"),
        ]
        #expect(first == expected)
        #expect(second == expected)
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func computedKeyPathSetFromADirectObserver() {
        // A direct observer of lastName, registered first, sets lastName again before the
        // computed observation hears of "B": a computed value is read from the model when
        // it is delivered, and the model already holds "C" then. No value is stale, but
        // "Ada B" never existed for the computed observer to see.
        let person = ObsPerson()
        var direct: [String] = []
        let t0 = person.observe(\.lastName, options: [.new]) { person, change in
            direct.append(change.newValue!)
            if change.newValue == "B" { person.lastName = "C" }
        }
        var computed: [String] = []
        let t1 = person.observe(\.fullName, options: [.new]) { _, change in computed.append(change.newValue!) }
        person.lastName = "B"
        #expect(direct == ["B", "C"])
        #expect(computed == ["Ada C", "Ada C"])
        withExtendedLifetime((t0, t1)) {}
    }

    @Test func chainedKeyPathSetFromItsCallback() {
        let person = ObsPerson()
        var first: [String] = []
        var second: [String] = []
        let t1 = person.observe(\.address.city, options: [.new]) { person, change in
            first.append(change.newValue!)
            if change.newValue == "Paris" { person.address = ObsAddress("Rome") }
        }
        let t2 = person.observe(\.address.city, options: [.new]) { _, change in
            second.append(change.newValue!)
        }
        person.address.city = "Paris"
        #expect(first == ["Paris", "Rome"])
        #expect(second == ["Paris", "Rome"])
        person.address.city = "Oslo"
        #expect(first == ["Paris", "Rome", "Oslo"])
        #expect(second == ["Paris", "Rome", "Oslo"])
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func publisherSinks() {
        let person = ObsPerson()
        var first: [String] = []
        var second: [String] = []
        let c1 = person.publisher(for: \.firstName).sink { name in
            first.append(name)
            if name == "B" { person.firstName = "C" }
        }
        let c2 = person.publisher(for: \.firstName).sink { second.append($0) }
        person.firstName = "B"
        #expect(first == ["Ada", "B", "C"])
        #expect(second == ["Ada", "B", "C"])
        withExtendedLifetime((c1, c2)) {}
    }

    @Test func projectionSinksNestedThreeDeep() {
        let person = ObsPerson()
        var first: [Int] = []
        var second: [Int] = []
        let c1 = person.$count.sink { value in
            first.append(value)
            if value >= 1, value < 3 { person.count = value + 1 }
        }
        let c2 = person.$count.sink { second.append($0) }
        person.count = 1
        #expect(first == [0, 1, 2, 3])
        #expect(second == [0, 1, 2, 3])
        withExtendedLifetime((c1, c2)) {}
    }

    @Test func computedPublisherSinks() {
        let person = ObsPerson()
        var first: [String] = []
        var second: [String] = []
        let c1 = person.publisher(for: \.fullName).sink { name in
            first.append(name)
            if name == "B Lovelace" { person.firstName = "C" }
        }
        let c2 = person.publisher(for: \.fullName).sink { second.append($0) }
        person.firstName = "B"
        #expect(first == ["Ada Lovelace", "B Lovelace", "C Lovelace"])
        #expect(second == ["Ada Lovelace", "B Lovelace", "C Lovelace"])
        withExtendedLifetime((c1, c2)) {}
    }

    @Test func observerCancelledByAnEarlierOneGetsNothingMore() {
        let person = ObsPerson()
        var second: [String] = []
        var t2: KeyValueObservation?
        let t1 = person.observe(\.firstName, options: [.new]) { _, _ in t2?.invalidate() }
        t2 = person.observe(\.firstName, options: [.new]) { _, change in second.append(change.newValue!) }
        person.firstName = "B"
        person.firstName = "C"
        #expect(second == [])
        withExtendedLifetime(t1) {}
    }

    @Test func observerAddedInACallbackGetsOnlyLaterValues() {
        let person = ObsPerson()
        var late: [String] = []
        var lateToken: KeyValueObservation?
        let t1 = person.observe(\.firstName, options: [.new]) { person, change in
            if lateToken == nil {
                lateToken = person.observe(\.firstName, options: [.initial, .new]) { _, change in
                    late.append(change.newValue!)
                }
            }
        }
        person.firstName = "B"
        person.firstName = "C"
        #expect(late == ["B", "C"])
        withExtendedLifetime((t1, lateToken)) {}
    }
}
