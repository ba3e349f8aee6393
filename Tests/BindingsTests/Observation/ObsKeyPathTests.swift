import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Observation: kinds of key paths")
struct ObsKeyPathTests {
    @Test func observedPropertyIsObservedDirectly() {
        let person = ObsPerson()
        var names: [String] = []
        let token = person.observe(\.firstName, options: [.new]) { _, change in names.append(change.newValue!) }
        person.lastName = "Byron"          // another property: nothing
        person.firstName = "Grace"
        person.firstName = "Mary"
        #expect(names == ["Grace", "Mary"])
        withExtendedLifetime(token) {}
    }

    @Test func computedWithTwoDependencies() {
        let person = ObsPerson()
        var names: [String] = []
        let token = person.observe(\.fullName, options: [.new]) { _, change in names.append(change.newValue!) }
        person.firstName = "Grace"
        person.lastName = "Hopper"
        person.count = 1                   // not read by fullName: nothing
        #expect(names == ["Grace Lovelace", "Grace Hopper"])
        withExtendedLifetime(token) {}
    }

    @Test func computedSwitchesDependencies() {
        let person = ObsPerson()
        var shown: [String] = []
        let token = person.observe(\.display, options: [.initial, .new]) { _, change in
            shown.append(change.newValue!)
        }
        person.nickname = "Al"             // unused while useNickname == false
        #expect(shown == ["Ada"])
        person.name = "Ann"                // used
        #expect(shown == ["Ada", "Ann"])
        person.useNickname = true          // switch: now nickname is used, name is not
        #expect(shown == ["Ada", "Ann", "Al"])
        person.name = "Bea"                // no longer used: nothing
        #expect(shown == ["Ada", "Ann", "Al"])
        person.nickname = "Bo"             // used now
        #expect(shown == ["Ada", "Ann", "Al", "Bo"])
        person.useNickname = false         // switch back
        person.nickname = "Cy"             // unused again: nothing
        person.name = "Dee"
        #expect(shown == ["Ada", "Ann", "Al", "Bo", "Bea", "Dee"])
        withExtendedLifetime(token) {}
    }

    @Test func chainFollowsReplacedIntermediateAndDropsTheOldOne() {
        let person = ObsPerson()
        var cities: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.address.city, options: [.initial, .old, .new]) { _, change in
            cities.append(change)
        }
        person.address.city = "Paris"
        let old = person.address
        person.address = ObsAddress("Rome")
        old.city = "Berlin"                // the old address no longer counts
        person.address.city = "Oslo"
        #expect(cities == [
            .set(new: "London", old: nil),
            .set(new: "Paris", old: "London"),
            .set(new: "Rome", old: "Paris"),
            .set(new: "Oslo", old: "Rome"),
        ])
        // The old address's channel has no observer left.
        #expect(old.cityStorage.observerCount == 0)
        withExtendedLifetime(token) {}
    }

    @Test func chainTwoLevelsDeep() {
        let person = ObsPerson()
        var names: [String] = []
        let token = person.observe(\.address.country.name, options: [.initial, .new]) { _, change in
            names.append(change.newValue!)
        }
        person.address.country.name = "France"
        let oldCountry = person.address.country
        person.address.country = ObsCountry("Italy")
        oldCountry.name = "Spain"          // dropped
        let oldAddress = person.address
        person.address = ObsAddress("Oslo", country: ObsCountry("Norway"))
        oldAddress.country.name = "Greece" // dropped
        oldAddress.country = ObsCountry("Malta") // dropped
        person.address.city = "Bergen"     // city is not on the path: nothing
        person.address.country.name = "Sweden"
        #expect(names == ["UK", "France", "Italy", "Norway", "Sweden"])
        withExtendedLifetime(token) {}
    }

    @Test func optionalChain() {
        let tenant = ObsTenant()
        var cities: [String?] = []
        let token = tenant.observe(\.home?.city, options: [.initial, .new]) { _, change in
            cities.append(change.newValue!)
        }
        tenant.home = ObsAddress("Paris")
        tenant.home?.city = "Lyon"
        let old = tenant.home!
        tenant.home = nil
        old.city = "Nice"                  // dropped
        tenant.home = ObsAddress("Rome")
        #expect(cities == [nil, "Paris", "Lyon", nil, "Rome"])
        withExtendedLifetime(token) {}
    }

    @Test func optionalChainPublisher() {
        let tenant = ObsTenant(home: ObsAddress("Paris"))
        let recorder = TestRecorder<String?, Never>(releasesSubscription: .onCompletion)
        tenant.publisher(for: \.home?.city).subscribe(recorder)
        tenant.home?.city = "Lyon"
        tenant.home = nil
        #expect(recorder.events == [.value("Paris"), .value("Lyon"), .value(nil)])
        recorder.cancel()
    }

    @Test func chainWithComputedLeaf() {
        let person = ObsPerson()
        var seen: [Int] = []
        let token = person.observe(\.address.city.count, options: [.initial, .new]) { _, change in
            seen.append(change.newValue!)
        }
        person.address.city = "Paris"
        person.address = ObsAddress("Rome")
        #expect(seen == [6, 5, 4])
        withExtendedLifetime(token) {}
    }

    @Test func computedCountOfArray() {
        let person = ObsPerson()
        var counts: [Int] = []
        let token = person.observe(\.tags.count, options: [.new]) { _, change in counts.append(change.newValue!) }
        person.tags.append("a")
        person.tags.append("b")
        person.tags.removeAll()
        #expect(counts == [1, 2, 0])
        withExtendedLifetime(token) {}
    }

    @Test func twoObservationsOfOneComputedKeyPathAreIndependent() {
        let person = ObsPerson()
        var first: [String] = []
        var second: [String] = []
        let t1 = person.observe(\.fullName, options: [.new]) { _, change in first.append(change.newValue!) }
        let t2 = person.observe(\.fullName, options: [.new]) { _, change in second.append(change.newValue!) }
        person.firstName = "Grace"
        t1.invalidate()
        person.lastName = "Hopper"
        #expect(first == ["Grace Lovelace"])
        #expect(second == ["Grace Lovelace", "Grace Hopper"])
        withExtendedLifetime(t2) {}
    }

    /// Invalidated, the observation stays idle, still linked, for a next observer of the
    /// key path; the next change of a dependency makes it leave, and calls nothing.
    @Test func invalidatingAComputedObservationLeavesItsDependenciesAtTheNextChange() {
        let person = ObsPerson()
        var calls = 0
        let token = person.observe(\.fullName, options: [.new]) { _, _ in calls += 1 }
        #expect(person.firstNameStorage.observerCount == 1)
        #expect(person.lastNameStorage.observerCount == 1)
        token.invalidate()
        #expect(person.firstNameStorage.observerCount == 1, "idle")
        #expect(person.lastNameStorage.observerCount == 1, "idle")
        person.lastName = "Byron"
        #expect(person.firstNameStorage.observerCount == 0)
        #expect(person.lastNameStorage.observerCount == 0)
        person.firstName = "Grace"
        #expect(calls == 0)
    }

    @Test func cancellingAChainSubscriptionLeavesEveryLink() {
        let person = ObsPerson()
        let address = person.address
        let country = address.country
        let c = person.publisher(for: \.address.country.name).sink { _ in }
        #expect(person.addressStorage.observerCount == 1)
        #expect(address.countryStorage.observerCount == 1)
        #expect(country.nameStorage.observerCount == 1)
        c.cancel()
        #expect(person.addressStorage.observerCount == 1, "idle")
        #expect(country.nameStorage.observerCount == 1, "idle")
        // A change of the last property (which the chain forwards) makes it leave too.
        country.name = "France"
        #expect(person.addressStorage.observerCount == 0)
        #expect(address.countryStorage.observerCount == 0)
        #expect(country.nameStorage.observerCount == 0)
    }
}
