import Dispatch
import Testing
@testable import Bindings

// The examples of README.md and Docs/*.md, with what the guides say about them as
// expectations: if one of these fails, a guide says something false.

private final class DocsAddress: KeyValueObservable {
    @Observed var city = "London"
}

private final class DocsPerson: KeyValueObservable {
    @Observed var firstName = "Ada"
    @Observed var lastName = "Lovelace"
    @Observed var nickname: String? = nil
    @Observed var address = DocsAddress()
    @Observed var tags: [String] = []
    var fullName: String { "\(firstName) \(lastName)" }
}

private final class DocsLabel: BindingOwner {
    var text: String?
    var subscriptions = Set<AnyCancellable>()
}

/// Storage that is not `@Observed`, notified by hand (Sources/Bindings/Bindings.docc/MigratingFromKVO.md).
private final class DocsThermometer: KeyValueObservable {
    let observationAnchor = ObservationAnchor()
    private var storage = 20.0
    var celsius: Double {
        get { storage }
        set {
            willChangeValue(for: \.celsius)
            storage = newValue
            didChangeValue(for: \.celsius)
        }
    }
    var reading: String { "\(celsius) °C" }

    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
        key == \DocsThermometer.reading ? [\DocsThermometer.celsius] : []
    }
}

@Suite("Docs: the guides' examples")
struct DocsExamplesTests {
    /// Their misuse is on purpose: its warnings go to `capturedLibraryWarnings`.
    init() { captureLibraryWarnings() }

    @Test func priorNoticeComesFirstWithTheOldValue() {
        let person = DocsPerson()
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.lastName, options: [.prior, .old, .new]) { _, change in
            changes.append(change)
        }
        person.lastName = "Byron"
        #expect(changes == [
            KeyValueObservedChange(kind: .setting, newValue: nil, oldValue: "Lovelace", isPrior: true),
            KeyValueObservedChange(kind: .setting, newValue: "Byron", oldValue: "Lovelace", isPrior: false),
        ])
        withExtendedLifetime(token) {}
    }

    @Test func initialFiresBeforeObserveReturns() {
        let person = DocsPerson()
        var names: [String?] = []
        let token = person.observe(\.firstName, options: [.initial, .new]) { _, change in
            names.append(change.newValue)
        }
        #expect(names == ["Ada"])
        token.invalidate()
        token.invalidate()                      // idempotent
        person.firstName = "Grace"
        #expect(names == ["Ada"])
    }

    @Test func optionalValuesArriveAsSomeNil() {
        let person = DocsPerson()
        var values: [String??] = []
        let token = person.observe(\.nickname, options: [.new]) { _, change in values.append(change.newValue) }
        person.nickname = "Ada"
        person.nickname = nil
        #expect(values == [.some("Ada"), .some(nil)])
        withExtendedLifetime(token) {}
    }

    @Test func everySetNotifiesUnlessDuplicatesAreRemoved() {
        let person = DocsPerson()
        var all: [String] = []
        var distinct: [String] = []
        let a = person.$firstName.sink { all.append($0) }
        let b = person.$firstName.removeDuplicates().sink { distinct.append($0) }
        person.firstName = "Ada"
        person.firstName = "Grace"
        #expect(all == ["Ada", "Ada", "Grace"])
        #expect(distinct == ["Ada", "Grace"])
        withExtendedLifetime((a, b)) {}
    }

    @Test func manualNotificationsAndDeclaredDependencies() {
        let thermometer = DocsThermometer()
        var readings: [String] = []
        var celsius: [Double] = []
        let a = thermometer.publisher(for: \.reading).sink { readings.append($0) }
        let b = thermometer.publisher(for: \.celsius).sink { celsius.append($0) }
        thermometer.celsius = 21
        #expect(readings == ["20.0 °C", "21.0 °C"])
        #expect(celsius == [20, 21])
        withExtendedLifetime((a, b)) {}
    }

    @Test func publisherFinishesWhenTheModelIsGone() {
        var person: DocsPerson? = DocsPerson()
        var events: [String] = []
        let c = person!.publisher(for: \.firstName).sink(
            receiveCompletion: { _ in events.append("finished") },
            receiveValue: { events.append($0) })
        let d = person!.$lastName.sink(
            receiveCompletion: { _ in events.append("$lastName finished") },
            receiveValue: { events.append($0) })
        weak let weakPerson = person
        person = nil                            // nothing the observation holds keeps it alive
        #expect(weakPerson == nil)
        #expect(events.count == 4)
        #expect(events.prefix(2) == ["Ada", "Lovelace"])
        #expect(Set(events.suffix(2)) == ["finished", "$lastName finished"])   // storage order
        withExtendedLifetime((c, d)) {}
    }

    @Test func observationTokenOutlivingTheModelIsHarmless() {
        var person: DocsPerson? = DocsPerson()
        var count = 0
        let token = person!.observe(\.firstName) { _, _ in count += 1 }
        person = nil
        token.invalidate()
        #expect(count == 0)
    }

    @Test func bindingEndsWhenTheOwnerDeinitialises() {
        let person = DocsPerson()
        var label: DocsLabel? = DocsLabel()
        label!.reactive.text <~ person.reactive.fullName
        #expect(label!.text == "Ada Lovelace")
        weak let weakLabel = label
        label = nil
        #expect(weakLabel == nil)
        var observers = 0
        let token = person.observe(\.fullName, options: [.new]) { _, _ in observers += 1 }
        person.lastName = "Byron"               // only the new observer hears it
        #expect(observers == 1)
        withExtendedLifetime(token) {}
    }

    @Test func bindingToAnOwnerThatIsGoneDoesNothing() {
        let subject = PassthroughSubject<String?, Never>()
        let sink = BindingSink<DocsLabel, String?>(owner: DocsLabel()) { $0.text = $1 }
        #expect(sink.owner == nil)              // held weakly: the label died with the expression
        let c = sink <~ subject                 // a no-op, not a crash
        #expect(subject.core.channel.observerCount == 0)
        subject.send("x")
        c.cancel()
    }

    @Test func listenerAPI() {
        let person = DocsPerson()
        let label = DocsLabel()
        person.$firstName.bind(label, skipInitialValue: false) { label, name in label.text = name }
        #expect(label.text == "Ada")
        person.firstName = "Grace"
        #expect(label.text == "Grace")
        person.$firstName.unbind(label)
        person.firstName = "Mary"
        #expect(label.text == "Grace")

        let title = ObservableValue("Title")
        title.bind(label) { label, title in label.text = title }
        title.update("New Title")
        #expect(title.value == "New Title")
        #expect(label.text == "New Title")
    }

    @Test func inlineBindingWithAScheduler() {
        let person = DocsPerson()
        let label = DocsLabel()
        person.nickname = "Ada"
        person.reactive.nickname.bind(to: label.reactive.text, on: ImmediateScheduler.shared)
        #expect(label.text == "Ada")
        person.reactive.lastName.bind(to: label) { label, name in label.text = name }
        #expect(label.text == "Lovelace")
        #expect(label.subscriptions.count == 2)
    }

    /// Docs/ThreadingAndReentrancy.md: a set made inside a callback is delivered after
    /// the current value has reached every observer, so nobody ends stale.
    @Test func reentrantSetIsQueuedNotNested() {
        let person = DocsPerson()
        var log: [String] = []
        let first = person.$firstName.sink { name in
            log.append("first: \(name)")
            if name == "Grace" {
                person.firstName = "Mary"       // re-entrant set
                log.append("set returned")
            }
        }
        let second = person.$firstName.sink { log.append("second: \($0)") }
        log.removeAll()
        person.firstName = "Grace"
        #expect(log == [
            "first: Grace", "set returned", "second: Grace",
            "first: Mary", "second: Mary",
        ])
        withExtendedLifetime((first, second)) {}
    }

    @Test func subjectsQueueReentrantSendsToo() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let a = subject.sink { value in
            log.append("a\(value)")
            if value == 1 { subject.send(2) }
        }
        let b = subject.sink { log.append("b\($0)") }
        subject.send(1)
        #expect(log == ["a1", "b1", "a2", "b2"])
        withExtendedLifetime((a, b)) {}
    }

    @Test func cancelInsideACallbackStopsAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [Int] = []
        var second: AnyCancellable?
        let first = subject.sink { value in
            if value == 1 { second?.cancel() }
        }
        second = subject.sink { log.append($0) }
        subject.send(0)
        subject.send(1)                         // the first subscriber cancels the second first
        subject.send(2)
        #expect(log == [0])
        withExtendedLifetime(first) {}
    }

    @Test func subscriberAddedDuringADeliveryGetsOnlyLaterValues() {
        let subject = PassthroughSubject<Int, Never>()
        var late: [Int] = []
        var lateSubscription: AnyCancellable?
        let first = subject.sink { value in
            if value == 1 { lateSubscription = subject.sink { late.append($0) } }
        }
        subject.send(1)
        subject.send(2)
        #expect(late == [2])
        withExtendedLifetime((first, lateSubscription)) {}
    }

    @Test func valuesAsAnAsyncSequence() async {
        let subject = CurrentValueSubject<Int, Never>(1)
        var received: [Int] = []
        for await value in subject.prefix(1).values {
            received.append(value)
        }
        #expect(received == [1])
    }

    @Test func valuesOfAKeyPath() async {
        let person = DocsPerson()
        var cities: [String] = []
        for await city in person.publisher(for: \.address.city).prefix(1).values {
            cities.append(city)
        }
        #expect(cities == ["London"])
    }

    @Test func chainedKeyPathResubscribes() {
        let person = DocsPerson()
        var cities: [String] = []
        let c = person.publisher(for: \.address.city).sink { cities.append($0) }
        person.address.city = "Paris"
        person.address = DocsAddress()
        #expect(cities == ["London", "Paris", "London"])
        withExtendedLifetime(c) {}
    }

    @Test func combineLatestOfTwoProperties() {
        let person = DocsPerson()
        var initials: [String] = []
        let c = person.$firstName.combineLatest(person.$lastName) { "\($0.prefix(1))\($1.prefix(1))" }
            .sink { initials.append($0) }
        person.lastName = "Byron"
        #expect(initials == ["AL", "AB"])
        withExtendedLifetime(c) {}

        let label = DocsLabel()                 // README: a derived publisher bound with <~
        label.reactive.text <~ person.$firstName
            .combineLatest(person.$lastName) { "\($0.prefix(1))\($1.prefix(1))" }
            .removeDuplicates()
        #expect(label.text == "AB")
        person.firstName = "Augusta"
        #expect(label.text == "AB")
        person.firstName = "Grace"
        #expect(label.text == "GB")
    }

    /// Re-entrant sets are queued per property: a set of another property made inside a
    /// callback is delivered at once, nested, since that property is not delivering.
    @Test func reentrantSetOfAnotherPropertyIsDeliveredAtOnce() {
        let person = DocsPerson()
        var log: [String] = []
        let first = person.publisher(for: \.firstName, options: [.new]).sink { name in
            log.append("firstName: \(name)")
            person.lastName = "Byron"
            log.append("set returned")
        }
        let last = person.publisher(for: \.lastName, options: [.new]).sink { log.append("lastName: \($0)") }
        person.firstName = "Augusta"
        #expect(log == ["firstName: Augusta", "lastName: Byron", "set returned"])
        withExtendedLifetime((first, last)) {}
    }

    @Test func concurrentUpdatesEndWithTheCurrentValue() {
        let load = ObservableValue(0)
        var last = -1                           // written by one delivering thread at a time
        var count = 0
        let c = load.sink { last = $0; count += 1 }
        DispatchQueue.concurrentPerform(iterations: 1000) { i in load.update(i + 1) }
        #expect(last == load.value)
        #expect(count == 1001)
        withExtendedLifetime(c) {}
    }

    @Test func ownerReleasedInsideACallbackIsReleasedAtOnce() {
        let person = DocsPerson()
        var label: DocsLabel? = DocsLabel()
        weak let weakLabel = label
        label!.reactive.text <~ person.reactive.firstName
        let c = person.$firstName.sink { name in
            if name == "Bye" { label = nil }
        }
        person.firstName = "Bye"
        #expect(weakLabel == nil)
        person.firstName = "Again"              // nothing left to deliver to
        withExtendedLifetime(c) {}
    }
}
