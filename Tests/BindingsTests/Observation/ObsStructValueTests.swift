import Testing
@testable import Bindings

// A property whose value is a struct of reference-counted fields: a change delivered at
// once reaches each observer from the setter's own value, with no event made (see
// `Channel.send(queuing:callingEach:)`), and an event only when it must wait. Each
// observer must still get every value, whole, in order, and keep what it was given.

/// A value with three heap-allocated Strings (longer than the 15 bytes kept inline).
private struct ObsPlace: Equatable {
    var street: String
    var city: String
    var country: String

    init(_ number: Int) {
        street = "\(number) Analytical Engine Street"
        city = "City of Westminster, district \(number)"
        country = "United Kingdom of Great Britain, \(number)"
    }
}

private final class ObsPlaceModel: KeyValueObservable {
    @Observed var place = ObsPlace(0)
    /// Computed from the struct: tracked through `place`.
    var cityLength: Int { place.city.utf8.count }
}

@Suite("Observation: struct values with reference-counted fields")
struct ObsStructValueTests {
    @Test func aSinkKeepsEveryValueItWasGiven() {
        let model = ObsPlaceModel()
        var received: [ObsPlace] = []
        let subscription = model.$place.sink { received.append($0) }
        for number in 1...50 { model.place = ObsPlace(number) }
        #expect(received == (0...50).map(ObsPlace.init))
        #expect(model.place == ObsPlace(50))
        withExtendedLifetime(subscription) {}
    }

    @Test func oldAndNewValuesArriveWhole() {
        let model = ObsPlaceModel()
        var changes: [KeyValueObservedChange<ObsPlace>] = []
        let observation = model.observe(\.place, options: [.old, .new]) { _, change in changes.append(change) }
        model.place = ObsPlace(1)
        model.place = ObsPlace(2)
        #expect(changes == [.set(new: ObsPlace(1), old: ObsPlace(0)), .set(new: ObsPlace(2), old: ObsPlace(1))])
        withExtendedLifetime(observation) {}
    }

    @Test func aSetFromACallbackIsQueuedWholeForTheNextObserver() {
        // The first observer's set arrives while the first set is being delivered: it
        // waits in the queue, as an event made from the setter's value.
        let model = ObsPlaceModel()
        var first: [ObsPlace] = []
        var second: [ObsPlace] = []
        let c1 = model.$place.dropFirst().sink { place in
            first.append(place)
            if place == ObsPlace(1) { model.place = ObsPlace(2) }
        }
        let c2 = model.$place.dropFirst().sink { second.append($0) }
        model.place = ObsPlace(1)
        #expect(first == [ObsPlace(1), ObsPlace(2)])
        #expect(second == [ObsPlace(1), ObsPlace(2)])
        withExtendedLifetime((c1, c2)) {}
    }

    @Test func aKeyPathIntoTheStructAndAComputedPropertyFollowIt() {
        let model = ObsPlaceModel()
        var cities: [String] = []
        var lengths: [Int] = []
        let c1 = model.publisher(for: \.place.city).sink { cities.append($0) }
        let c2 = model.publisher(for: \.cityLength).sink { lengths.append($0) }
        model.place = ObsPlace(7)
        model.place.street = "elsewhere"   // in place: the city stays, and is sent again
        #expect(cities == [ObsPlace(0).city, ObsPlace(7).city, ObsPlace(7).city])
        #expect(lengths == [ObsPlace(0).city.utf8.count, ObsPlace(7).city.utf8.count, ObsPlace(7).city.utf8.count])
        withExtendedLifetime((c1, c2)) {}
    }
}
