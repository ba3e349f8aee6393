import BindingsTestSupport
import Testing
@testable import Bindings

// SPEC sections 2 and 6: observing never keeps a model alive; when the model goes,
// everything attached to it is released at once.

@Suite("Observation: lifetime")
struct ObsLifetimeTests {
    /// The kinds of key path: direct, computed, chained, chained two levels deep.
    static func keyPath(_ index: Int) -> KeyPath<ObsPerson, String> {
        switch index {
        case 0: \.firstName
        case 1: \.fullName
        case 2: \.address.city
        default: \.address.country.name
        }
    }

    @Test(arguments: 0..<4)
    func observationDoesNotKeepTheModelAlive(_ index: Int) {
        let keyPath = Self.keyPath(index)
        var person: ObsPerson? = ObsPerson()
        weak let weakPerson = person
        let token = person!.observe(keyPath, options: [.initial, .old, .new, .prior]) { _, _ in }
        let c = person!.publisher(for: keyPath, options: [.initial, .prior, .new]).sink { _ in }
        person = nil
        #expect(released { weakPerson == nil })
        withExtendedLifetime((token, c)) {}
    }

    @Test func projectionSubscriptionDoesNotKeepTheModelAlive() {
        var person: ObsPerson? = ObsPerson()
        weak let weakPerson = person
        let c = person!.$firstName.sink { _ in }
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person!.$lastName.subscribe(recorder)
        person = nil
        #expect(released { weakPerson == nil })
        #expect(recorder.events == [.value("Lovelace"), .finished])
        withExtendedLifetime(c) {}
    }

    @Test(arguments: 0..<4)
    func tokenOutlivingItsModelIsHarmless(_ index: Int) {
        let keyPath = Self.keyPath(index)
        var person: ObsPerson? = ObsPerson()
        var calls = 0
        let token = person!.observe(keyPath, options: [.new]) { _, _ in calls += 1 }
        person = nil
        token.invalidate()
        token.invalidate()
        #expect(calls == 0)
    }

    @Test(arguments: 0..<4)
    func changeHandlerIsReleasedWhenTheModelGoes(_ index: Int) {
        let keyPath = Self.keyPath(index)
        var person: ObsPerson? = ObsPerson()
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        let token = person!.observe(keyPath, options: [.new]) { [sentinel] _, _ in
            withExtendedLifetime(sentinel) {}
        }
        sentinel = nil
        #expect(weakSentinel != nil, "the handler holds it while the model lives")
        person = nil
        #expect(released { weakSentinel == nil }, "released with the model, while the token is still held")
        withExtendedLifetime(token) {}
    }

    @Test(arguments: 0..<4)
    func sinkClosureIsReleasedWhenTheModelGoes(_ index: Int) {
        let keyPath = Self.keyPath(index)
        var person: ObsPerson? = ObsPerson()
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        let c = person!.publisher(for: keyPath).sink { [sentinel] _ in withExtendedLifetime(sentinel) {} }
        sentinel = nil
        #expect(weakSentinel != nil)
        person = nil
        #expect(released { weakSentinel == nil })
        withExtendedLifetime(c) {}
    }

    @Test
    func projectionSinkClosureIsReleasedWhenTheModelGoes() {
        var person: ObsPerson? = ObsPerson()
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        let c = person!.$firstName.sink { [sentinel] _ in withExtendedLifetime(sentinel) {} }
        sentinel = nil
        person = nil
        #expect(released { weakSentinel == nil })
        withExtendedLifetime(c) {}
    }

    @Test(arguments: 0..<4)
    func subscriberIsReleasedWhenTheModelGoes(_ index: Int) {
        // The subscription lets go of its subscriber when the model goes (what the
        // subscriber itself keeps is its own business: see the sink tests above).
        let keyPath = Self.keyPath(index)
        var person: ObsPerson? = ObsPerson()
        var recorder: TestRecorder<String, Never>? = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        weak let weakRecorder = recorder
        person!.publisher(for: keyPath).subscribe(recorder!)
        recorder = nil
        #expect(weakRecorder != nil, "the subscription holds its subscriber")
        person = nil
        #expect(released { weakRecorder == nil })
    }

    @Test(arguments: 0..<4)
    func publisherFinishesWhenTheModelGoes(_ index: Int) {
        let keyPath = Self.keyPath(index)
        var person: ObsPerson? = ObsPerson()
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person!.publisher(for: keyPath, options: [.new]).subscribe(recorder)
        person = nil
        #expect(recorder.events == [.finished])
        recorder.cancel()                  // harmless after completion
        #expect(recorder.events == [.finished])
    }

    @Test func sinkReceivesFinishedWhenTheModelGoes() {
        var person: ObsPerson? = ObsPerson()
        var events: [String] = []
        let c = person!.publisher(for: \.fullName).sink(
            receiveCompletion: { _ in events.append("finished") },
            receiveValue: { events.append($0) })
        person!.firstName = "Grace"
        person = nil
        #expect(events == ["Ada Lovelace", "Grace Lovelace", "finished"])
        withExtendedLifetime(c) {}
    }

    @Test func intermediateObjectOfAChainIsNotKeptAlive() {
        let person = ObsPerson()
        weak let weakAddress = person.address
        let token = person.observe(\.address.city, options: [.new]) { _, _ in }
        person.address = ObsAddress("Rome")
        #expect(weakAddress == nil)
        withExtendedLifetime(token) {}
    }

    @Test func chainEndsWhenTheRootGoesEvenIfTheIntermediateLives() {
        var person: ObsPerson? = ObsPerson()
        let address = person!.address      // kept alive here
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person!.publisher(for: \.address.city, options: [.new]).subscribe(recorder)
        let token = person!.observe(\.address.city, options: [.new]) { [sentinel] _, _ in
            withExtendedLifetime(sentinel) {}
        }
        sentinel = nil
        person = nil
        #expect(recorder.events == [.finished])
        #expect(released { weakSentinel == nil })
        address.city = "Paris"             // nothing is listening any more
        #expect(recorder.events == [.finished])
        #expect(address.cityStorage.observerCount == 0)
        withExtendedLifetime(token) {}
    }

    @Test func modelReleasedInsideItsOwnCallback() {
        var person: ObsPerson? = ObsPerson()
        weak let weakPerson = person
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        var seen: [String] = []
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person!.publisher(for: \.fullName, options: [.new]).subscribe(recorder)
        let token = person!.observe(\.firstName, options: [.new]) { [sentinel] _, change in
            withExtendedLifetime(sentinel) {}
            seen.append(change.newValue!)
            person = nil                   // the last strong reference, from inside
        }
        sentinel = nil
        person!.firstName = "Grace"
        #expect(seen == ["Grace"])
        #expect(weakPerson == nil)
        #expect(weakSentinel == nil)
        #expect(recorder.events.last == .finished)
        withExtendedLifetime(token) {}
    }

    @Test func invalidatedTokenReleasesItsHandler() {
        let person = ObsPerson()
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        let token = person.observe(\.fullName, options: [.new]) { [sentinel] _, _ in
            withExtendedLifetime(sentinel) {}
        }
        sentinel = nil
        token.invalidate()
        #expect(weakSentinel == nil)
    }

    @Test func releasedTokenEndsTheObservation() {
        let person = ObsPerson()
        var calls = 0
        var token: KeyValueObservation? = person.observe(\.fullName, options: [.new]) { _, _ in calls += 1 }
        person.firstName = "Grace"
        token = nil
        person.firstName = "Mary"
        #expect(calls == 1)
        #expect(person.firstNameStorage.observerCount == 0)
        withExtendedLifetime(token) {}
    }

    @Test func observableValueSubscriptionsFinishWhenItIsReleased() {
        var value: ObservableValue<Int>? = ObservableValue(1)
        weak let weakValue = value
        var recorder: TestRecorder<Int, Never>? = TestRecorder<Int, Never>(releasesSubscription: .onCompletion)
        weak let weakRecorder = recorder
        let kept = TestRecorder<Int, Never>(releasesSubscription: .onCompletion)
        value!.subscribe(recorder!)
        value!.subscribe(kept)
        recorder = nil
        value!.update(2)
        value = nil
        #expect(weakValue == nil)
        #expect(weakRecorder == nil)
        #expect(kept.events == [.value(1), .value(2), .finished])
    }

    @Test func observableValueReleasedInsideItsOwnCallback() {
        var value: ObservableValue<Int>? = ObservableValue(1)
        weak let weakValue = value
        let recorder = TestRecorder<Int, Never>(releasesSubscription: .onCompletion)
        value!.subscribe(recorder)
        var token: AnyCancellable?
        token = value!.sink { v in if v == 2 { value = nil } }
        value!.update(2)
        #expect(weakValue == nil)
        #expect(recorder.events == [.value(1), .value(2), .finished])
        withExtendedLifetime(token) {}
    }
}

/// Holds a model so that a callback can release it.
private final class ObsHolder {
    var person: ObsPerson?
    init(_ person: ObsPerson) { self.person = person }
}

@Suite("Observation: lifetime, model released during a delivery")
struct ObsLifetimeDuringDeliveryTests {
    @Test
    func chainObserverReleasesTheRootFromItsCallback() {
        let holder = ObsHolder(ObsPerson())
        weak let weakPerson = holder.person
        let address = holder.person!.address
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        holder.person!.publisher(for: \.address.city, options: [.new]).subscribe(recorder)
        var seen: [String] = []
        let token = holder.person!.observe(\.address.city, options: [.new]) { _, change in
            seen.append(change.newValue!)
            holder.person = nil            // the root goes while its chain is delivering
        }
        address.city = "Paris"
        address.city = "Rome"              // the observation has ended: nothing
        #expect(weakPerson == nil)
        #expect(seen == ["Paris"])
        #expect(recorder.events == [.value("Paris"), .finished])
        #expect(address.cityStorage.observerCount == 0)
        withExtendedLifetime(token) {}
    }

    @Test func projectionSinkClosureIsReleasedAtCancelWhileTheCancellableIsHeld() {
        let person = ObsPerson()
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        var names: [String] = []
        let c = person.$firstName.sink { [sentinel] in withExtendedLifetime(sentinel) {}; names.append($0) }
        sentinel = nil
        person.firstName = "Grace"
        c.cancel()
        #expect(weakSentinel == nil, "released by cancel(), not when the cancellable goes")
        person.firstName = "Ada"
        #expect(names == ["Ada", "Grace"])
        withExtendedLifetime(c) {}
    }

    @Test func changeHandlerIsReleasedAtInvalidateWhileTheTokenIsHeld() {
        let person = ObsPerson()
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        var changes: [String?] = []
        let token = person.observe(\.lastName, options: [.new]) { [sentinel] _, change in
            withExtendedLifetime(sentinel) {}
            changes.append(change.newValue)
        }
        sentinel = nil
        person.lastName = "Byron"
        token.invalidate()
        #expect(weakSentinel == nil, "released by invalidate(), not when the token goes")
        person.lastName = "King"
        #expect(changes == ["Byron"])
        withExtendedLifetime(token) {}
    }
}
