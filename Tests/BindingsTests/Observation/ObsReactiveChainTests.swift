import BindingsTestSupport
import Testing
@testable import Bindings

/// A model that is also a binding owner, holding another model: its `reactive` members
/// are `ReactiveProperty`s, whose members continue the key path too.
private final class ObsChainView: KeyValueObservable, BindingOwner {
    @Observed var person = ObsPerson()
    var caption = ""
    var subscriptions = Set<AnyCancellable>()
}

@Suite("Observation: `reactive` member chains")
struct ObsReactiveChainTests {
    /// `person.reactive.address.city` observes `\.address.city`: the current city, each
    /// set of it, and the city of a replacing address; the replaced address is dropped.
    @Test func aMemberOfTheValueContinuesTheKeyPath() {
        let person = ObsPerson()
        let old = person.address
        let recorder = TestRecorder<String, Never>()
        person.reactive.address.city.subscribe(recorder)
        person.address.city = "Paris"
        person.address = ObsAddress("Oslo")
        old.city = "Rome"   // no longer the person's
        person.address.city = "Bergen"
        #expect(recorder.events == [.value("London"), .value("Paris"), .value("Oslo"), .value("Bergen")])
        #expect(old.cityStorage.observerCount == 0)
    }

    /// Three levels, with `sink`, and the options of `publisher(for:)`.
    @Test func threeLevelsWithTheOptionsOfPublisherFor() {
        let person = ObsPerson()
        let chained = person.reactive.address.country.name
        #expect(chained.options == person.publisher(for: \.address.country.name).options)
        #expect(chained.object === person)
        var names: [String] = []
        let c = chained.sink { names.append($0) }
        person.address.country.name = "France"
        person.address.country = ObsCountry("Norway")
        person.address = ObsAddress("Lima", country: ObsCountry("Peru"))
        #expect(names == ["UK", "France", "Norway", "Peru"])
        withExtendedLifetime(c) {}
    }

    /// A binding from a chained member: the owner follows the chain.
    @Test func aChainedMemberIsABindingSource() {
        let person = ObsPerson()
        let view = ObsChainView()
        view.reactive.caption <~ person.reactive.address.city
        #expect(view.caption == "London")
        person.address = ObsAddress("Quito")
        person.address.city = "Cusco"
        #expect(view.caption == "Cusco")
    }

    /// The members of a `ReactiveProperty` (a model that is also an owner) continue its
    /// key path the same way.
    @Test func aReactivePropertysMemberContinuesItsKeyPath() {
        let view = ObsChainView()
        let recorder = TestRecorder<String, Never>()
        view.reactive.person.firstName.subscribe(recorder)
        view.person.firstName = "Grace"
        view.person = ObsPerson()
        #expect(recorder.events == [.value("Ada"), .value("Grace"), .value("Ada")])
    }

    /// Made while the object lives, subscribed after it is gone: finishes at once, as
    /// `publisher(for:)` does.
    @Test func aChainOfAGoneObjectFinishes() {
        var person: ObsPerson? = ObsPerson()
        let chained = person!.reactive.address.city
        person = nil
        let recorder = TestRecorder<String, Never>()
        chained.subscribe(recorder)
        #expect(recorder.events == [.finished])
    }
}
