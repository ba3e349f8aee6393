import BindingsTestSupport
import Foundation
import Testing
@testable import Bindings

// Derived key paths (see `DerivedObservation`):
// - A chain of `@Observed` properties from the root (`\.address.city`) forwards each change
//   of its last property as it is, with no evaluation: a re-entrant set reaches the chain's
//   observers value by value, in order; old values are the chain's previous values; a
//   replaced intermediate object is still followed (and the old one dropped).
// - When the last observer of a computed or chained key path that reads an `@Observed`
//   property of the root leaves, the shared observation stays linked ("idle") until the next
//   change of a dependency (then it leaves, calling nothing) or the end of the root; a new
//   observer arriving meanwhile reuses it. A key path that reads nothing of the root leaves
//   at once.

/// A model whose computed key paths read another model's property: `ownerFirstName` reads
/// nothing of the badge itself, `labelled` reads the badge's own `label` too.
private final class ObsIdleBadge: KeyValueObservable {
    @Observed var label = "badge"
    let owner: ObsPerson

    init(owner: ObsPerson) { self.owner = owner }

    var ownerFirstName: String { owner.firstName }
    var labelled: String { "\(label): \(owner.firstName)" }

    var labelStorage: Observed<String> { _label }
}

/// How the direct observer of `address.city` is made, in the re-entrant chain tests.
enum ObsDirectObserverKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `address.observe(\.city, options: [.new])`.
    case observe
    /// `address.$city`, subscribed with a recorder (initial value first).
    case projected
    /// `address.publisher(for: \.city, options: [.new])`, subscribed with a recorder.
    case publisher

    var testDescription: String { rawValue }
}

/// Which observers a re-entrant chain test registers first.
enum ObsRegistrationOrder: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case directFirst
    case chainFirst

    var testDescription: String { rawValue }
}

@Suite("Observation: idle derived observations and forwarded chains")
struct ObsIdleAndChainTests {
    // MARK: Chains: forwarded changes

    /// The direct observer sets `city` again ("Rome") from its callback for "Paris": the
    /// chain's observers get "Paris" then "Rome", each value in the order set, not the
    /// current value twice, whichever observer registered first.
    @Test(arguments: ObsDirectObserverKind.allCases, ObsRegistrationOrder.allCases)
    func chainReceivesEachReentrantSetInOrder(_ kind: ObsDirectObserverKind, _ order: ObsRegistrationOrder) {
        let person = ObsPerson()
        let address = person.address

        // The direct observer of `address.city` (A).
        var directToken: KeyValueObservation?
        let directRecorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        var directValues: [String] = []
        func observeDirectly() {
            switch kind {
            case .observe:
                directToken = address.observe(\.city, options: [.new]) { address, change in
                    directValues.append(change.newValue!)
                    if change.newValue == "Paris" { address.city = "Rome" }
                }
            case .projected, .publisher:
                directRecorder.onValue = { value in
                    if value == "Paris" { address.city = "Rome" }
                }
                if kind == .projected {
                    address.$city.subscribe(directRecorder)
                } else {
                    address.publisher(for: \.city, options: [.new]).subscribe(directRecorder)
                }
            }
        }

        // The chain's observers on the root: a change handler with old values, and a
        // subscription (initial value, then the new ones).
        var chainToken: KeyValueObservation?
        var chainChanges: [KeyValueObservedChange<String>] = []
        let chainRecorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        func observeChain() {
            chainToken = person.observe(\.address.city, options: [.old, .new]) { _, change in
                chainChanges.append(change)
            }
            person.publisher(for: \.address.city).subscribe(chainRecorder)
        }

        switch order {
        case .directFirst:
            observeDirectly()
            observeChain()
        case .chainFirst:
            observeChain()
            observeDirectly()
        }

        address.city = "Paris"

        #expect(address.city == "Rome")
        switch kind {
        case .observe:
            #expect(directValues == ["Paris", "Rome"])
        case .projected:
            #expect(directRecorder.events == [.value("London"), .value("Paris"), .value("Rome")])
        case .publisher:
            #expect(directRecorder.events == [.value("Paris"), .value("Rome")])
        }
        #expect(chainRecorder.events == [.value("London"), .value("Paris"), .value("Rome")])
        #expect(chainChanges == [.set(new: "Paris", old: "London"), .set(new: "Rome", old: "Paris")])
        #expect(chainChanges.last?.newValue == person.address.city, "ends with the current value")

        // Later sets still arrive once each.
        address.city = "Oslo"
        #expect(chainRecorder.events == [.value("London"), .value("Paris"), .value("Rome"), .value("Oslo")])
        #expect(chainChanges == [
            .set(new: "Paris", old: "London"), .set(new: "Rome", old: "Paris"), .set(new: "Oslo", old: "Rome"),
        ])
        #expect(directRecorder.violations.isEmpty)
        #expect(chainRecorder.violations.isEmpty)
        directRecorder.cancel()
        chainRecorder.cancel()
        withExtendedLifetime((directToken, chainToken)) {}
    }

    /// A batch under way on another thread is that thread's: here a chain still forwards
    /// each value of a re-entrant set, in order (it once evaluated instead whenever any
    /// thread had a batch open, and its observers got the newer value twice).
    @Test func aBatchOnAnotherThreadLeavesTheChainForwarding() {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let left = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            batchChanges {
                entered.signal()
                release.wait()
            }
            left.signal()
        }
        entered.wait()
        defer {
            release.signal()
            left.wait()
        }

        let person = ObsPerson()
        let address = person.address
        let direct = address.observe(\.city, options: [.new]) { address, change in
            if change.newValue == "Paris" { address.city = "Rome" }
        }
        var chain: [String] = []
        let subscription = person.publisher(for: \.address.city).sink { chain.append($0) }
        address.city = "Paris"
        #expect(chain == ["London", "Paris", "Rome"])
        withExtendedLifetime((direct, subscription)) {}
    }

    /// Each value set re-entrantly, several levels deep (each callback sets the next
    /// value), reaches the chain's observer once, in order.
    @Test func chainReceivesNestedReentrantSetsInOrder() {
        let person = ObsPerson()
        let address = person.address
        var direct: [String] = []
        let next = ["A": "B", "B": "C", "C": "D"]
        let t1 = address.observe(\.city, options: [.new]) { address, change in
            direct.append(change.newValue!)
            if let following = next[change.newValue!] { address.city = following }
        }
        var chain: [KeyValueObservedChange<String>] = []
        let t2 = person.observe(\.address.city, options: [.initial, .old, .new]) { _, change in
            chain.append(change)
        }
        address.city = "A"
        #expect(direct == ["A", "B", "C", "D"])
        #expect(chain == [
            .set(new: "London", old: nil),
            .set(new: "A", old: "London"), .set(new: "B", old: "A"),
            .set(new: "C", old: "B"), .set(new: "D", old: "C"),
        ])
        #expect(person.address.city == "D")
        withExtendedLifetime((t1, t2)) {}
    }

    /// Old values on a chain are the previous chain values, across sets of the last
    /// property (equal values included) and across a replacement of the intermediate
    /// object; the replaced object's sets then deliver nothing.
    @Test func chainOldAndNewAcrossSetsAndAReplacement() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.address.city, options: [.old, .new]) { _, change in changes.append(change) }
        person.address.city = "Paris"
        person.address.city = "Paris"      // equal values notify too
        person.address.city = "Rome"
        #expect(changes == [
            .set(new: "Paris", old: "London"),
            .set(new: "Paris", old: "Paris"),
            .set(new: "Rome", old: "Paris"),
        ])

        let oldAddress = person.address
        person.address = ObsAddress("Oslo")
        #expect(changes.count == 4)
        #expect(changes.last == .set(new: "Oslo", old: "Rome"), "old: the previous chain value")

        oldAddress.city = "Berlin"         // the replaced object: nothing
        oldAddress.city = "Madrid"
        #expect(changes.count == 4, "a set of the replaced intermediate's property was delivered: \(changes)")
        #expect(oldAddress.cityStorage.observerCount == 0)
        #expect(person.address.cityStorage.observerCount == 1)

        person.address.city = "Bergen"
        #expect(changes == [
            .set(new: "Paris", old: "London"),
            .set(new: "Paris", old: "Paris"),
            .set(new: "Rome", old: "Paris"),
            .set(new: "Oslo", old: "Rome"),
            .set(new: "Bergen", old: "Oslo"),
        ])
        withExtendedLifetime(token) {}
    }

    /// A replacement with an object whose value is equal still notifies, and the chain
    /// then follows the new object only.
    @Test func chainReplacementByEqualValueFollowsTheNewObject() {
        let person = ObsPerson()
        let first = person.address
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person.publisher(for: \.address.city).subscribe(recorder)
        person.address = ObsAddress("London")
        first.city = "Paris"               // the replaced object: nothing
        person.address.city = "Rome"
        #expect(recorder.events == [.value("London"), .value("London"), .value("Rome")])
        #expect(first.cityStorage.observerCount == 0)
        recorder.cancel()
    }

    /// `.prior` on a chain: each set of the last property, and a replacement of the
    /// intermediate, sends a prior notice whose old value is the chain's value before the
    /// change (as for computed key paths, ObsSharedDerivedTests / ObsOptionsTests).
    @Test func chainPriorNoticesCarryThePreviousChainValue() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.address.city, options: [.old, .new, .prior]) { _, change in
            changes.append(change)
        }
        person.address.city = "Paris"
        person.address.city = "Rome"
        let oldAddress = person.address
        person.address = ObsAddress("Oslo")
        oldAddress.city = "Berlin"         // the replaced object: nothing, not even a prior notice
        person.address.city = "Bergen"
        #expect(changes == [
            .prior(old: "London"), .set(new: "Paris", old: "London"),
            .prior(old: "Paris"), .set(new: "Rome", old: "Paris"),
            .prior(old: "Rome"), .set(new: "Oslo", old: "Rome"),
            .prior(old: "Oslo"), .set(new: "Bergen", old: "Oslo"),
        ])
        #expect(oldAddress.cityStorage.observerCount == 0)
        withExtendedLifetime(token) {}
    }

    /// `.prior` without `.old`: prior notices carry no old value (as Foundation's, see
    /// ObsOptionCase), one before each change.
    @Test func chainPriorNoticesWithoutOld() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.address.city, options: [.initial, .prior, .new]) { _, change in
            changes.append(change)
        }
        person.address.city = "Paris"
        person.address = ObsAddress("Oslo")
        #expect(changes == [
            .set(new: "London", old: nil),
            .prior(old: nil), .set(new: "Paris", old: nil),
            .prior(old: nil), .set(new: "Oslo", old: nil),
        ])
        withExtendedLifetime(token) {}
    }

    /// A re-entrant set of the chain's last property with a `.prior` chain observer: the
    /// notices come in order, each prior notice with the chain value before its change.
    @Test func chainPriorNoticesWithAReentrantSet() {
        let person = ObsPerson()
        let address = person.address
        var direct: [String] = []
        let t1 = address.observe(\.city, options: [.new]) { address, change in
            direct.append(change.newValue!)
            if change.newValue == "Paris" { address.city = "Rome" }
        }
        var changes: [KeyValueObservedChange<String>] = []
        let t2 = person.observe(\.address.city, options: [.old, .new, .prior]) { _, change in
            changes.append(change)
        }
        address.city = "Paris"
        #expect(direct == ["Paris", "Rome"])
        #expect(changes == [
            .prior(old: "London"), .set(new: "Paris", old: "London"),
            .prior(old: "Paris"), .set(new: "Rome", old: "Paris"),
        ])
        withExtendedLifetime((t1, t2)) {}
    }

    // MARK: Idle: reuse

    /// Cancelled, a computed observation stays linked; the next observer reuses it (no
    /// second registration), gets the current value first and each change once.
    @Test func idleComputedObservationIsReusedByTheNextObserver() {
        let person = ObsPerson()
        var cancelledCalls = 0
        let first = person.publisher(for: \.fullName, options: [.new]).sink { _ in cancelledCalls += 1 }
        #expect(person.firstNameStorage.observerCount == 1)
        #expect(person.lastNameStorage.observerCount == 1)
        first.cancel()
        #expect(person.firstNameStorage.observerCount == 1, "idle: still linked")
        #expect(person.lastNameStorage.observerCount == 1, "idle: still linked")

        var seen: [String] = []
        let token = person.observe(\.fullName, options: [.initial, .new]) { _, change in seen.append(change.newValue!) }
        #expect(seen == ["Ada Lovelace"], "the initial value is current")
        #expect(person.firstNameStorage.observerCount == 1, "reused: no second registration")
        #expect(person.lastNameStorage.observerCount == 1, "reused: no second registration")

        person.lastName = "Byron"
        #expect(seen == ["Ada Lovelace", "Ada Byron"], "delivered exactly once")
        person.firstName = "Grace"
        #expect(seen == ["Ada Lovelace", "Ada Byron", "Grace Byron"])
        #expect(cancelledCalls == 0)
        #expect(person.firstNameStorage.observerCount == 1)
        #expect(person.lastNameStorage.observerCount == 1)
        withExtendedLifetime(token) {}
    }

    /// Observers that come and go one after another with no change in between share one
    /// set of registrations, and each gets the value that is current when it comes.
    @Test func idleObservationServesObserversComingAndGoingRepeatedly() {
        let person = ObsPerson()
        var initials: [String] = []
        for _ in 0..<5 {
            let token = person.observe(\.fullName, options: [.initial]) { person, _ in
                initials.append(person.fullName)
            }
            #expect(person.firstNameStorage.observerCount == 1)
            #expect(person.lastNameStorage.observerCount == 1)
            token.invalidate()
        }
        #expect(initials == Array(repeating: "Ada Lovelace", count: 5))
        #expect(person.firstNameStorage.observerCount == 1, "idle")
        person.firstName = "Grace"         // leaves
        #expect(person.firstNameStorage.observerCount == 0)
        #expect(person.lastNameStorage.observerCount == 0)
    }

    /// An observer wanting old values that comes while idle gets the current value as the
    /// first old value.
    @Test func idleObservationReusedWithOldValues() {
        let person = ObsPerson()
        let first = person.observe(\.fullName, options: [.new]) { _, _ in }
        first.invalidate()
        #expect(person.firstNameStorage.observerCount == 1, "idle")
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.fullName, options: [.old, .new]) { _, change in changes.append(change) }
        #expect(person.firstNameStorage.observerCount == 1, "reused")
        person.firstName = "Grace"
        person.lastName = "Hopper"
        #expect(changes == [
            .set(new: "Grace Lovelace", old: "Ada Lovelace"),
            .set(new: "Grace Hopper", old: "Grace Lovelace"),
        ])
        withExtendedLifetime(token) {}
    }

    /// An observer wanting prior notices that comes while idle makes the observation link
    /// for prior notices (a link for changes and one for priors per dependency), and gets
    /// them with the right old values; when it leaves, the prior links go at once.
    @Test func idleObservationReusedByAPriorObserver() {
        let person = ObsPerson()
        let first = person.observe(\.fullName, options: [.new]) { _, _ in }
        first.invalidate()
        #expect(person.firstNameStorage.observerCount == 1, "idle")
        #expect(!person.firstNameStorage.wantsPrior)
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.fullName, options: [.old, .new, .prior]) { _, change in changes.append(change) }
        #expect(person.firstNameStorage.observerCount == 2, "a link for changes, one for prior notices")
        #expect(person.lastNameStorage.observerCount == 2)
        #expect(person.firstNameStorage.wantsPrior)
        person.firstName = "Grace"
        #expect(changes == [.prior(old: "Ada Lovelace"), .set(new: "Grace Lovelace", old: "Ada Lovelace")])
        token.invalidate()
        #expect(person.firstNameStorage.observerCount == 1, "idle again, the prior links gone")
        #expect(!person.firstNameStorage.wantsPrior)
        person.firstName = "Mary"
        #expect(person.firstNameStorage.observerCount == 0)
        #expect(person.lastNameStorage.observerCount == 0)
        #expect(changes == [.prior(old: "Ada Lovelace"), .set(new: "Grace Lovelace", old: "Ada Lovelace")])
    }

    /// A chain left idle is reused too: no new registration on any link, the initial value
    /// current, forwarded changes delivered once with the right old values.
    @Test func idleChainIsReusedByTheNextObserver() {
        let person = ObsPerson()
        let address = person.address
        let first = person.publisher(for: \.address.city).sink { _ in }
        first.cancel()
        #expect(person.addressStorage.observerCount == 1, "idle")
        #expect(address.cityStorage.observerCount == 1, "idle")

        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.address.city, options: [.initial, .old, .new]) { _, change in
            changes.append(change)
        }
        #expect(person.addressStorage.observerCount == 1, "reused")
        #expect(address.cityStorage.observerCount == 1, "reused")
        address.city = "Paris"
        person.address = ObsAddress("Rome")
        #expect(changes == [
            .set(new: "London", old: nil),
            .set(new: "Paris", old: "London"),
            .set(new: "Rome", old: "Paris"),
        ])
        #expect(address.cityStorage.observerCount == 0)
        withExtendedLifetime(token) {}
    }

    // MARK: Idle: leaving at the next change

    /// A change while idle makes the observation leave every dependency and calls
    /// nothing; the next observer links again and gets the current value.
    @Test func idleComputedObservationLeavesAtTheNextChangeAndRelinksLater() {
        let person = ObsPerson()
        var cancelledCalls = 0
        let first = person.observe(\.fullName, options: [.new]) { _, _ in cancelledCalls += 1 }
        first.invalidate()
        #expect(person.firstNameStorage.observerCount == 1, "idle")
        #expect(person.lastNameStorage.observerCount == 1, "idle")

        person.firstName = "Grace"
        #expect(person.firstNameStorage.observerCount == 0, "left at the change")
        #expect(person.lastNameStorage.observerCount == 0, "left at the change: every dependency")
        person.lastName = "Hopper"
        #expect(cancelledCalls == 0)

        var seen: [String] = []
        let token = person.observe(\.fullName, options: [.initial, .new]) { _, change in seen.append(change.newValue!) }
        #expect(person.firstNameStorage.observerCount == 1, "linked again")
        #expect(person.lastNameStorage.observerCount == 1, "linked again")
        #expect(seen == ["Grace Hopper"], "the initial value is current")
        person.lastName = "Byron"
        #expect(seen == ["Grace Hopper", "Grace Byron"])
        #expect(cancelledCalls == 0)
        withExtendedLifetime(token) {}
    }

    /// The same with a subscription: cancelled, idle, left at the next change; a new
    /// subscription's first value is current.
    @Test func idleSubscriptionLeavesAtTheNextChange() {
        let person = ObsPerson()
        let cancelled = TestRecorder<String, Never>()
        person.publisher(for: \.fullName).subscribe(cancelled)
        cancelled.cancel()
        #expect(person.lastNameStorage.observerCount == 1, "idle")
        person.lastName = "Byron"
        #expect(person.firstNameStorage.observerCount == 0)
        #expect(person.lastNameStorage.observerCount == 0)
        #expect(cancelled.events == [.value("Ada Lovelace")])

        let recorder = TestRecorder<String, Never>()
        person.publisher(for: \.fullName).subscribe(recorder)
        #expect(person.firstNameStorage.observerCount == 1)
        #expect(person.lastNameStorage.observerCount == 1)
        person.firstName = "Grace"
        #expect(recorder.events == [.value("Ada Byron"), .value("Grace Byron")])
        #expect(cancelled.events == [.value("Ada Lovelace")])
        recorder.cancel()
    }

    /// An idle chain leaves at a change of its last property (forwarded to no observer)
    /// and at a replacement of its intermediate object; nothing is delivered either way.
    @Test(arguments: [true, false])
    func idleChainLeavesAtTheNextChange(replacingIntermediate: Bool) {
        let person = ObsPerson()
        let address = person.address
        var cancelledCalls = 0
        let first = person.observe(\.address.city, options: [.new]) { _, _ in cancelledCalls += 1 }
        first.invalidate()
        #expect(person.addressStorage.observerCount == 1, "idle")
        #expect(address.cityStorage.observerCount == 1, "idle")

        if replacingIntermediate {
            person.address = ObsAddress("Rome")
        } else {
            address.city = "Rome"
        }
        #expect(person.addressStorage.observerCount == 0, "left")
        #expect(address.cityStorage.observerCount == 0, "left")
        #expect(person.address.cityStorage.observerCount == 0, "nothing linked to a new object")
        #expect(cancelledCalls == 0)

        var seen: [String] = []
        let token = person.observe(\.address.city, options: [.initial, .new]) { _, change in seen.append(change.newValue!) }
        #expect(person.addressStorage.observerCount == 1, "linked again")
        #expect(person.address.cityStorage.observerCount == 1, "linked again")
        #expect(seen == ["Rome"])
        person.address.city = "Oslo"
        #expect(seen == ["Rome", "Oslo"])
        #expect(cancelledCalls == 0)
        withExtendedLifetime(token) {}
    }

    // MARK: Idle: ending with the model

    /// An idle observation keeps neither its model nor the cancelled observer's closure
    /// alive; the model's end ends it.
    @Test(arguments: [true, false])
    func idleComputedObservationEndsWithTheModel(usingPublisher: Bool) {
        var person: ObsPerson? = ObsPerson()
        weak let weakPerson = person
        var canary: Canary? = Canary()
        weak let weakCanary = canary
        if usingPublisher {
            let cancellable = person!.publisher(for: \.fullName).sink { [canary] _ in canary?.touch() }
            cancellable.cancel()
        } else {
            let token = person!.observe(\.fullName, options: [.new]) { [canary] _, _ in canary?.touch() }
            token.invalidate()
        }
        canary = nil
        #expect(person!.firstNameStorage.observerCount == 1, "idle")
        #expect(person!.lastNameStorage.observerCount == 1, "idle")
        #expect(weakCanary == nil, "the cancelled closure was kept")
        person = nil
        #expect(weakPerson == nil, "the idle observation kept the model alive")
        #expect(weakCanary == nil)
    }

    /// A chain left idle while its intermediate object lives on elsewhere: the end of the
    /// root unlinks the intermediate's property too, and later sets of it are harmless.
    @Test func idleChainEndsWithTheRootWhileTheChildLivesOn() {
        var person: ObsPerson? = ObsPerson()
        weak let weakPerson = person
        let address = person!.address
        var canary: Canary? = Canary()
        weak let weakCanary = canary
        let token = person!.observe(\.address.city, options: [.old, .new]) { [canary] _, _ in canary?.touch() }
        token.invalidate()
        canary = nil
        #expect(address.cityStorage.observerCount == 1, "idle")
        person = nil
        #expect(weakPerson == nil, "the idle chain kept its root alive")
        #expect(weakCanary == nil)
        #expect(address.cityStorage.observerCount == 0, "the end of the root unlinks the child")
        address.city = "Paris"
        address.city = "Rome"
        #expect(address.cityStorage.observerCount == 0)
        #expect(address.city == "Rome")

        // The child can be observed afresh.
        var seen: [String] = []
        let direct = address.observe(\.city, options: [.initial, .new]) { _, change in seen.append(change.newValue!) }
        address.city = "Oslo"
        #expect(seen == ["Rome", "Oslo"])
        #expect(address.cityStorage.observerCount == 1)
        withExtendedLifetime(direct) {}
    }

    /// An active chain (an observer still registered) whose root goes while its child
    /// lives on: the observer is completed, the child unlinked.
    @Test func activeChainEndsWithTheRootWhileTheChildLivesOn() {
        var person: ObsPerson? = ObsPerson()
        let address = person!.address
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person!.publisher(for: \.address.city).subscribe(recorder)
        address.city = "Paris"
        person = nil
        #expect(recorder.events == [.value("London"), .value("Paris"), .finished])
        #expect(address.cityStorage.observerCount == 0)
        address.city = "Rome"
        #expect(recorder.events == [.value("London"), .value("Paris"), .finished])
    }

    // MARK: Only key paths that read the root go idle

    /// A computed key path that reads only another object's property has no registration
    /// that the root's end would close: it leaves at once when its last observer goes.
    @Test(arguments: [true, false])
    func keyPathReadingOnlyAnotherObjectLeavesAtOnce(usingPublisher: Bool) {
        let owner = ObsPerson()
        let badge = ObsIdleBadge(owner: owner)
        var seen: [String] = []
        var cancel: () -> Void
        if usingPublisher {
            let cancellable = badge.publisher(for: \.ownerFirstName).sink { seen.append($0) }
            cancel = { cancellable.cancel() }
        } else {
            let token = badge.observe(\.ownerFirstName, options: [.initial, .new]) { _, change in
                seen.append(change.newValue!)
            }
            cancel = { token.invalidate() }
        }
        #expect(owner.firstNameStorage.observerCount == 1)
        owner.firstName = "Grace"
        #expect(seen == ["Ada", "Grace"])
        cancel()
        #expect(owner.firstNameStorage.observerCount == 0, "left at once: reads nothing of its root")
        owner.firstName = "Mary"
        #expect(seen == ["Ada", "Grace"])
        #expect(owner.firstNameStorage.observerCount == 0)

        // The next observer links again, with the current value.
        var again: [String] = []
        let token = badge.observe(\.ownerFirstName, options: [.initial, .new]) { _, change in again.append(change.newValue!) }
        #expect(owner.firstNameStorage.observerCount == 1)
        owner.firstName = "Ada"
        #expect(again == ["Mary", "Ada"])
        withExtendedLifetime(token) {}
        cancel = {}
    }

    /// The same model's key path that also reads the root's own `label` goes idle.
    @Test func keyPathReadingTheRootAndAnotherObjectGoesIdle() {
        let owner = ObsPerson()
        let badge = ObsIdleBadge(owner: owner)
        var calls = 0
        let token = badge.observe(\.labelled, options: [.new]) { _, _ in calls += 1 }
        #expect(badge.labelStorage.observerCount == 1)
        #expect(owner.firstNameStorage.observerCount == 1)
        token.invalidate()
        #expect(badge.labelStorage.observerCount == 1, "idle")
        #expect(owner.firstNameStorage.observerCount == 1, "idle")
        owner.firstName = "Grace"          // another object's change makes it leave too
        #expect(badge.labelStorage.observerCount == 0)
        #expect(owner.firstNameStorage.observerCount == 0)
        #expect(calls == 0)
    }

    /// An idle key path that reads another object: the end of the root unlinks that
    /// object's property, which lives on.
    @Test func idleKeyPathReadingAnotherObjectEndsWithTheRoot() {
        let owner = ObsPerson()
        var badge: ObsIdleBadge? = ObsIdleBadge(owner: owner)
        weak let weakBadge = badge
        let token = badge!.observe(\.labelled, options: [.new]) { _, _ in }
        token.invalidate()
        #expect(owner.firstNameStorage.observerCount == 1, "idle")
        badge = nil
        #expect(weakBadge == nil)
        #expect(owner.firstNameStorage.observerCount == 0, "the end of the root unlinks the other object")
        owner.firstName = "Grace"
        #expect(owner.firstNameStorage.observerCount == 0)
    }

    // MARK: Review follow-ups

    /// An observer of `address` registered before the chain, which resets the old
    /// address's city when `address` is replaced: the chain's observers never get that
    /// city, which was never the value of `\.address.city` (the old address is no longer
    /// the person's when it is set), only the new address's.
    @Test func aReplacedIntermediateObjectsLateSetIsNotTheChains() {
        let person = ObsPerson()
        let first = person.address
        var previous: ObsAddress? = first
        let resetter = person.observe(\.address, options: [.new]) { _, change in
            previous?.city = "Stale"
            previous = change.newValue
        }
        var chain: [String] = []
        let chainToken = person.observe(\.address.city, options: [.initial, .new]) { _, change in
            chain.append(change.newValue!)
        }
        person.address = ObsAddress("Oslo")
        #expect(first.city == "Stale")
        #expect(!chain.contains("Stale"), "received \(chain)")
        #expect(chain.last == "Oslo")
        #expect(chain.first == "London")
        person.address.city = "Bergen"
        #expect(chain.last == "Bergen")
        withExtendedLifetime((resetter, chainToken)) {}
    }

    /// An idle observation whose link with another object dies (that object is released)
    /// leaves: nothing stays registered on the root.
    @Test func idleObservationLeavesWhenAnotherObjectItReadsIsGone() {
        let root = ObsIdleLoose()
        var other: ObsPerson? = ObsPerson()
        weak let weakOther = other
        root.other = other
        let token = root.observe(\.summary, options: [.new]) { _, _ in }
        #expect(root.labelStorage.observerCount == 1)
        token.invalidate()
        #expect(root.labelStorage.observerCount == 1, "idle")
        root.other = nil   // plain storage: no notification
        other = nil
        #expect(weakOther == nil)
        #expect(root.labelStorage.observerCount == 0, "left when the other object's channel closed")
    }
}

/// A model whose computed key path reads its own `label` and, through plain storage, the
/// first name of another model it does not keep alive by itself.
private final class ObsIdleLoose: KeyValueObservable {
    @Observed var label = "loose"
    var other: ObsPerson?
    var summary: String { "\(label) \(other?.firstName ?? "-")" }
    var labelStorage: Observed<String> { _label }
}
