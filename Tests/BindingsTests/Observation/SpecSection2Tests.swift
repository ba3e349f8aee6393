import Testing
@testable import Bindings

// The code block of SPEC section 2, line by line, with its comments as expectations.

private final class Address: KeyValueObservable {
    @Observed var city = "London"
}

private final class Person: KeyValueObservable {
    @Observed var firstName = "Ada"
    @Observed var lastName = "Lovelace"
    @Observed var address = Address()
    @Observed var tags: [String] = []
    var fullName: String { "\(firstName) \(lastName)" }
}

@Suite("Observation: SPEC section 2")
struct SpecSection2Tests {
    @Test func observeComputedWithOldAndNew() {
        let person = Person()
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.fullName, options: [.old, .new]) { _, change in
            changes.append(change)
        }
        person.lastName = "Byron"
        token.invalidate()
        person.lastName = "King"
        #expect(changes == [KeyValueObservedChange(kind: .setting, newValue: "Ada Byron", oldValue: "Ada Lovelace")])
    }

    @Test func publisherForNestedKeyPathResubscribes() {
        let person = Person()
        var cities: [String] = []
        let c = person.publisher(for: \.address.city).sink { cities.append($0) }
        person.address.city = "Paris"
        let old = person.address
        person.address = Address()
        old.city = "Rome"               // the old address no longer counts
        person.address.city = "Oslo"
        #expect(cities == ["London", "Paris", "London", "Oslo"])
        withExtendedLifetime(c) {}
    }

    @Test func projectionPublishesCurrentThenNew() {
        let person = Person()
        var names: [String] = []
        let pc = person.$firstName.sink { names.append($0) }
        person.firstName = "Grace"
        person.firstName = "Grace"      // equal values notify too
        #expect(names == ["Ada", "Grace", "Grace"])
        withExtendedLifetime(pc) {}
    }

    @Test func inPlaceMutationNotifies() {
        let person = Person()
        var seen: [[String]] = []
        let c = person.$tags.sink { seen.append($0) }
        person.tags.append("x")
        person.tags.append("y")
        #expect(seen == [[], ["x"], ["x", "y"]])
        withExtendedLifetime(c) {}
    }
}
