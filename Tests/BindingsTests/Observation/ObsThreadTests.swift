import BindingsTestSupport
import Dispatch
import Synchronization
import Testing
@testable import Bindings

// SPEC section 6: tokens invalidated, subscriptions cancelled and observers released from
// several threads while the model's own thread keeps setting and observing. Run these
// under `--sanitize=thread`.

/// A model confined to one thread (the test's `modelThread` iteration), handed over to it.
/// `@unchecked Sendable`: only the model thread touches `person` after hand-over; the
/// other threads only touch tokens and cancellables, which are thread-safe.
private final class ConfinedModel: @unchecked Sendable {
    let person = ObsPerson()
}

/// Tokens and cancellables handed to the other threads.
/// `@unchecked Sendable`: `tokens` is `Sendable`; `cancellables` is only read by the
/// thread at index `i` for slice `i` (disjoint slices), after the arrays are built.
private final class Handles: @unchecked Sendable {
    let tokens: [KeyValueObservation]
    let cancellables: [AnyCancellable]
    init(tokens: [KeyValueObservation], cancellables: [AnyCancellable]) {
        self.tokens = tokens
        self.cancellables = cancellables
    }
}

@Suite("Observation: threads")
struct ObsThreadTests {
    static let observersPerThread = 50
    static let sets = 2_000

    @Test func invalidateAndCancelFromFourThreadsWhileTheModelThreadSetsAndObserves() {
        let model = ConfinedModel()
        let person = model.person
        let delivered = Counter()
        var tokens: [KeyValueObservation] = []
        var cancellables: [AnyCancellable] = []
        for i in 0..<4 * Self.observersPerThread {
            let keyPath: KeyPath<ObsPerson, String> = i % 2 == 0 ? \.firstName : \.fullName
            tokens.append(person.observe(keyPath, options: [.old, .new, .prior]) { _, _ in
                delivered.increment(ordering: .relaxed)
            })
            cancellables.append(person.publisher(for: i % 3 == 0 ? \.address.city : \.firstName).sink { _ in
                delivered.increment(ordering: .relaxed)
            })
        }
        let handles = Handles(tokens: tokens, cancellables: cancellables)
        tokens = []
        cancellables = []
        DispatchQueue.concurrentPerform(iterations: 5) { index in
            if index == 0 {
                let person = model.person
                var log: [String] = []
                for i in 0..<Self.sets {
                    person.firstName = "n\(i)"
                    if i % 7 == 0 { person.address.city = "c\(i)" }
                    if i % 50 == 0 {
                        // Observing keeps working meanwhile.
                        let token = person.observe(\.fullName, options: [.initial, .new]) { _, change in
                            log.append(change.newValue!)
                        }
                        person.lastName = "L\(i)"
                        token.invalidate()
                    }
                }
                #expect(log.count == 2 * (Self.sets / 50))
                #expect(log.last == "n\(Self.sets / 50 * 50 - 50) L\(Self.sets / 50 * 50 - 50)")
            } else {
                let range = (index - 1) * Self.observersPerThread..<index * Self.observersPerThread
                for i in range {
                    handles.tokens[i].invalidate()
                    handles.tokens[i].invalidate()     // idempotent
                    handles.cancellables[i].cancel()
                }
            }
        }
        // Everything was invalidated: nothing is delivered any more.
        let before = delivered.value
        person.firstName = "done"
        person.address.city = "done"
        #expect(delivered.value == before)
        #expect(person.firstNameStorage.observerCount == 0)
        #expect(person.lastNameStorage.observerCount == 0)
        #expect(person.address.cityStorage.observerCount == 0)
    }

    @Test func releaseObserversFromFourThreads() {
        let model = ConfinedModel()
        let person = model.person
        let bags = (0..<4).map { _ in LockedLog<AnyCancellable>() }
        let tokenLists = (0..<4).map { _ in LockedLog<KeyValueObservation>() }
        for thread in 0..<4 {
            for i in 0..<Self.observersPerThread {
                tokenLists[thread].append(person.observe(i % 2 == 0 ? \.firstName : \.fullName) { _, _ in })
                bags[thread].append(person.$firstName.sink { _ in })
            }
        }
        DispatchQueue.concurrentPerform(iterations: 5) { index in
            if index == 0 {
                let person = model.person
                for i in 0..<Self.sets { person.firstName = "n\(i)" }
            } else {
                // Dropping the last reference deinits (and so invalidates) on this thread.
                _ = tokenLists[index - 1].takeAll()
                _ = bags[index - 1].takeAll()
            }
        }
        // The last `fullName` observer may have gone after the last set: its observation
        // is then idle, and leaves at the next change.
        person.lastName = "done"
        #expect(person.firstNameStorage.observerCount == 0)
        #expect(person.lastNameStorage.observerCount == 0)
    }

    @Test func invalidateOneTokenFromManyThreadsAtOnce() {
        let person = ObsPerson()
        let calls = LockedLog<String>()
        let token = person.observe(\.firstName, options: [.new]) { _, change in calls.append(change.newValue!) }
        person.firstName = "B"
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<100 { token.invalidate() }
        }
        person.firstName = "C"
        #expect(calls.items == ["B"])
        #expect(person.firstNameStorage.observerCount == 0)
    }

    @Test func keyValueObservationIsSendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(KeyValueObservation.self)
        requireSendable(KeyValueObservingOptions.self)
        requireSendable(KeyValueChange.self)
        requireSendable(KeyValueObservedChange<String>.self)
        requireSendable(ObservableValue<Int>.self)
    }

    @Test func cancelWhileAnotherThreadDeliversToTheSameSubscriptions() {
        // The model is an ObservableValue, which any thread may update.
        let value = ObservableValue(0)
        let bag = LockedLog<AnyCancellable>()
        let counts = (0..<40).map { _ in Counter() }
        let cancelled = (0..<40).map { _ in Counter() }
        let late = Counter()
        var cancellables: [AnyCancellable] = []
        for i in 0..<40 {
            cancellables.append(value.sink { _ in
                counts[i].increment(ordering: .relaxed)
                // A value may be in flight while cancel() runs, but none starts after it returned.
                if cancelled[i].value == 1 { late.increment(ordering: .relaxed) }
            })
        }
        let handles = Handles(tokens: [], cancellables: cancellables)
        cancellables = []
        DispatchQueue.concurrentPerform(iterations: 5) { index in
            if index == 0 {
                for i in 1...Self.sets { value.update(i) }
            } else {
                for i in stride(from: index - 1, to: 40, by: 4) {
                    handles.cancellables[i].cancel()
                    cancelled[i].set(1)
                }
            }
        }
        value.update(-1)
        for i in 0..<40 { #expect(counts[i].value <= 1 + Self.sets) }
        #expect(late.value <= 4, "at most the value in flight on each cancelling thread")
        withExtendedLifetime(bag) {}
    }

    @Test func modelsOnDifferentThreadsAtOnce() {
        // Each thread owns its own model and observes it; the library's shared state
        // (dependency tracking, registries) must not mix them up.
        let results = LockedLog<Bool>()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let person = ObsPerson()
            var names: [String] = []
            var cities: [String] = []
            let t1 = person.observe(\.fullName, options: [.new]) { _, change in names.append(change.newValue!) }
            let t2 = person.observe(\.address.city, options: [.new]) { _, change in cities.append(change.newValue!) }
            for i in 0..<500 {
                person.firstName = "t\(thread)-\(i)"
                if i % 10 == 0 { person.address = ObsAddress("c\(thread)-\(i)") }
            }
            results.append(names.count == 500 && names.last == "t\(thread)-499 Lovelace"
                && cities.count == 50 && cities.last == "c\(thread)-490")
            withExtendedLifetime((t1, t2)) {}
        }
        #expect(results.items == [true, true, true, true])
    }
}
