import BindingsTestSupport
import Testing
@testable import Bindings

// A computed or chained key path observed several times on one object is evaluated once
// per change, by one shared observation, which follows its observers' needs.

@Suite("Observation: shared derived observations")
struct ObsSharedDerivedTests {
    @Test func observersOfOneComputedKeyPathShareItsLinks() {
        let person = ObsPerson()
        var first: [String] = []
        var second: [String] = []
        let t1 = person.observe(\.fullName, options: [.new]) { _, change in first.append(change.newValue!) }
        let c2 = person.publisher(for: \.fullName, options: [.new]).sink { second.append($0) }
        #expect(person.firstNameStorage.observerCount == 1)
        #expect(person.lastNameStorage.observerCount == 1)
        person.firstName = "Grace"
        #expect(first == ["Grace Lovelace"])
        #expect(second == ["Grace Lovelace"])
        withExtendedLifetime((t1, c2)) {}
    }

    @Test func differentObjectsDoNotShare() {
        let a = ObsPerson()
        let b = ObsPerson()
        var seenA: [String] = []
        var seenB: [String] = []
        let t1 = a.observe(\.fullName, options: [.new]) { _, change in seenA.append(change.newValue!) }
        let t2 = b.observe(\.fullName, options: [.new]) { _, change in seenB.append(change.newValue!) }
        a.firstName = "Grace"
        b.lastName = "Byron"
        #expect(seenA == ["Grace Lovelace"])
        #expect(seenB == ["Ada Byron"])
        withExtendedLifetime((t1, t2)) {}
    }

    @Test func lastObserverLeavingDetachesAndANewOneReattaches() {
        let person = ObsPerson()
        // A cancelled subscription still held keeps the shared observation (dormant) alive.
        let cancelled = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person.publisher(for: \.fullName).subscribe(cancelled)
        cancelled.cancel()
        #expect(person.firstNameStorage.observerCount == 1, "idle: still linked, until the next change")
        person.firstName = "Grace"         // unseen: it leaves instead
        #expect(person.firstNameStorage.observerCount == 0, "dormant: no links")
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.fullName, options: [.old, .new]) { _, change in changes.append(change) }
        #expect(person.firstNameStorage.observerCount == 1, "active again")
        person.lastName = "Hopper"
        #expect(changes == [.set(new: "Grace Hopper", old: "Grace Lovelace")], "the old value is read afresh")
        #expect(cancelled.events == [.value("Ada Lovelace")])
        withExtendedLifetime(token) {}
    }

    @Test func subscriptionWaitingForDemandSurvivesTheOthersLeaving() {
        let person = ObsPerson()
        let waiting = TestRecorder<String, Never>(initialDemand: .none, releasesSubscription: .onCompletion)
        person.publisher(for: \.fullName).subscribe(waiting)
        let token = person.observe(\.fullName, options: [.new]) { _, _ in }
        token.invalidate()                 // the only registered observer leaves
        person.firstName = "Grace"
        waiting.request(.unlimited)
        person.lastName = "Hopper"
        #expect(waiting.events == [.value("Grace Lovelace"), .value("Grace Hopper")])
        waiting.cancel()
        #expect(person.firstNameStorage.observerCount == 1, "idle until the next change")
        person.lastName = "Byron"
        #expect(person.firstNameStorage.observerCount == 0, "left at the change")
        #expect(waiting.events == [.value("Grace Lovelace"), .value("Grace Hopper")])
    }

    /// A subscription registers when it is handed over (so that its initial value is
    /// read on the subscribing thread), and, as a subject's does in Combine, lasts until
    /// it is cancelled or its source ends: one whose subscriber drops it without
    /// requesting or cancelling ends with the model.
    @Test func subscriptionDroppedWithoutDemandOrCancelEndsWithTheModel() {
        var person: ObsPerson? = ObsPerson()
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        let finished = LockedLog<String>()
        // A subscriber that drops its subscription without requesting or cancelling.
        person!.publisher(for: \.fullName).subscribe(AnySubscriber<String, Never>(
            receiveSubscription: { [sentinel] _ in withExtendedLifetime(sentinel) {} },
            receiveValue: { finished.append("value \($0)"); return .none },
            receiveCompletion: { _ in finished.append("finished") }))
        sentinel = nil
        #expect(weakSentinel != nil, "registered, waiting for demand")
        #expect(person!.firstNameStorage.observerCount == 1)
        person!.firstName = "Grace"        // no demand: dropped
        person = nil
        // Usually at once. But another thread's weak load of the model (tests run in
        // parallel: another test's purge of the hand-notification table's dead entries
        // loads every entry's object) may hold it for an instant, and then it ends on that
        // thread: so wait, and check exactly what arrived.
        #expect(eventually { finished.items == ["finished"] })
        #expect(finished.items == ["finished"])
        #expect(eventually { weakSentinel == nil }, "released with the model")
    }

    @Test func priorNoticesAreAskedOfTheDependenciesOnlyWhileWanted() {
        let person = ObsPerson()
        var plain: [KeyValueObservedChange<String>] = []
        let t1 = person.observe(\.fullName, options: [.new]) { _, change in plain.append(change) }
        #expect(!person.firstNameStorage.wantsPrior)
        #expect(!person.firstNameStorage.wantsOld, "no copies for a computed observer")
        var prior: [KeyValueObservedChange<String>] = []
        let t2 = person.observe(\.fullName, options: [.old, .new, .prior]) { _, change in prior.append(change) }
        #expect(person.firstNameStorage.wantsPrior)
        #expect(person.firstNameStorage.observerCount == 2, "a link for changes, one for prior notices")
        person.firstName = "Grace"
        t2.invalidate()
        #expect(!person.firstNameStorage.wantsPrior, "dropped with the last observer wanting them")
        #expect(!person.firstNameStorage.wantsOld)
        #expect(person.firstNameStorage.observerCount == 1)
        person.firstName = "Mary"
        #expect(plain == [.set(new: "Grace Lovelace", old: nil), .set(new: "Mary Lovelace", old: nil)])
        #expect(prior == [.prior(old: "Ada Lovelace"), .set(new: "Grace Lovelace", old: "Ada Lovelace")])
        withExtendedLifetime(t1) {}
    }

    @Test func observerWithPriorFirstThenWithout() {
        let person = ObsPerson()
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person.publisher(for: \.fullName, options: [.prior, .new]).subscribe(recorder)
        var plain: [String] = []
        let token = person.observe(\.fullName, options: [.new]) { _, change in plain.append(change.newValue!) }
        person.lastName = "Byron"
        #expect(recorder.events == [.value("Ada Lovelace"), .value("Ada Byron")])
        #expect(plain == ["Ada Byron"])
        recorder.cancel()
        withExtendedLifetime(token) {}
    }

    @Test func priorObserverJoiningDuringADeliveryLosesNoChange() {
        // A direct observer, registered before the computed one, starts a `.prior`
        // observation of the computed key path while "Grace" is being delivered: the
        // links that carry changes stay, so the computed observers still hear "Grace".
        let person = ObsPerson()
        var priorToken: KeyValueObservation?
        var withPrior: [KeyValueObservedChange<String>] = []
        let t0 = person.observe(\.firstName, options: [.new]) { person, _ in
            if priorToken == nil {
                priorToken = person.observe(\.fullName, options: [.old, .new, .prior]) { _, change in
                    withPrior.append(change)
                }
            }
        }
        var plain: [String] = []
        let t1 = person.observe(\.fullName, options: [.new]) { _, change in plain.append(change.newValue!) }
        person.firstName = "Grace"
        person.firstName = "Mary"
        #expect(plain == ["Grace Lovelace", "Mary Lovelace"])
        // The observation kept no old value while nobody wanted one (keeping one would
        // make every in-place mutation of a copy-on-write value copy it), so the change
        // under way when the `.old` observer joined carries the value at joining as old.
        #expect(withPrior == [
            .set(new: "Grace Lovelace", old: "Grace Lovelace"),
            .prior(old: "Grace Lovelace"), .set(new: "Mary Lovelace", old: "Grace Lovelace"),
        ])
        withExtendedLifetime((t0, t1, priorToken)) {}
    }

    @Test func observingAgainFromInsideACallbackOfTheSameKeyPath() {
        let person = ObsPerson()
        var late: [String] = []
        var lateToken: KeyValueObservation?
        var first: [String] = []
        let t1 = person.observe(\.fullName, options: [.new]) { person, change in
            first.append(change.newValue!)
            if lateToken == nil {
                lateToken = person.observe(\.fullName, options: [.initial, .new]) { _, change in
                    late.append(change.newValue!)
                }
            }
        }
        person.firstName = "Grace"
        person.firstName = "Mary"
        #expect(first == ["Grace Lovelace", "Mary Lovelace"])
        #expect(late == ["Grace Lovelace", "Mary Lovelace"])
        withExtendedLifetime((t1, lateToken)) {}
    }

    @Test func observationEndsWhenTheRootGoesAndANewObjectStartsFresh() {
        var person: ObsPerson? = ObsPerson()
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person!.publisher(for: \.fullName, options: [.new]).subscribe(recorder)
        person = nil
        #expect(recorder.events == [.finished])
        // Objects made now may reuse the address; their observations must be their own.
        for _ in 0..<20 {
            let other = ObsPerson()
            var seen: [String] = []
            let token = other.observe(\.fullName, options: [.initial, .new]) { _, change in seen.append(change.newValue!) }
            other.firstName = "Grace"
            #expect(seen == ["Ada Lovelace", "Grace Lovelace"])
            withExtendedLifetime(token) {}
        }
        #expect(recorder.events == [.finished])
    }
}
