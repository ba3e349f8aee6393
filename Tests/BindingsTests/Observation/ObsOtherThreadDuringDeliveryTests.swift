import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// While the model's thread delivers a change, another thread may act on the property's
// observers: a removal from anywhere, or anything at all from a thread that a callback
// hands the model to and waits for (unbind, cancel, subscribe, set, release the model).
// Each completes without waiting for the delivery: what must come after the current
// value (a set, a new subscriber's initial value, a removal's release) is queued and
// applied by the delivering thread once that value is delivered. These tests hold a
// delivery open (a callback waits) while another thread acts, then check what each
// observer received, in order, and that what a removal captured is gone.

/// What another thread does to end an observation.
enum ObsRemoval: String, CaseIterable, Sendable {
    /// `cancel()` on the `AnyCancellable` of a `sink`, which the other thread then drops.
    case cancel
    /// Drops the only reference to the `AnyCancellable` of a `sink`.
    case release
    /// `invalidate()` on the token of `observe(_:options:changeHandler:)`, then drops it.
    case invalidate
}

/// The handles that the other thread ends. `@unchecked Sendable`: the test thread hands
/// them over before the other thread starts, and does not touch them again.
private final class ObsHandles: @unchecked Sendable {
    var cancellables: [AnyCancellable] = []
    var tokens: [KeyValueObservation] = []

    func end(_ removal: ObsRemoval) {
        switch removal {
        case .cancel:
            for cancellable in cancellables { cancellable.cancel() }
            cancellables = []
        case .release:
            cancellables = []
        case .invalidate:
            for token in tokens { token.invalidate() }
            tokens = []
        }
    }
}

/// A model whose computed key path reads another object's property only (so its
/// observation leaves its dependencies as soon as its last observer goes), and runs a
/// hook, once, in the middle of an evaluation. `@unchecked Sendable`: the hook is
/// guarded by its lock; `source` is set on the test's thread only.
private final class ObsLeavingRoot: KeyValueObservable, @unchecked Sendable {
    let source = ObsCountry("UK")
    let duringEvaluation = Locked<(@Sendable () -> Void)?>(nil)

    var loudName: String {
        let name = source.name
        if let hook = duringEvaluation.withLock({ $0.take() }) { hook() }
        return name.uppercased()
    }
}

@Suite("Observation: another thread during a delivery")
struct ObsOtherThreadDuringDeliveryTests {
    /// Makes `count` observers of `person.count` of the kind `removal` ends, each
    /// capturing a sentinel counted by `sentinels` and recording into `log`.
    private func observe(
        _ person: ObsPerson, count: Int, for removal: ObsRemoval, into log: LockedLog<Int>,
        handles: ObsHandles, sentinels: LiveCounter
    ) {
        for _ in 0..<count {
            let sentinel = Canary(sentinels)
            switch removal {
            case .cancel, .release:
                handles.cancellables.append(person.$count.sink { value in
                    withExtendedLifetime(sentinel) { log.append(value) }
                })
            case .invalidate:
                handles.tokens.append(person.observe(\.count, options: [.initial, .new]) { _, change in
                    withExtendedLifetime(sentinel) { log.append(change.newValue!) }
                })
            }
        }
    }

    @Test(arguments: ObsRemoval.allCases)
    func removalsWaitForTheDeliveryThenApply(_ removal: ObsRemoval) {
        let person = ObsPerson()
        let entered = DispatchSemaphore(value: 0)
        let removed = DispatchSemaphore(value: 0)
        let first = LockedLog<Int>()
        // The first observer holds the delivery of 1 open until the removals are made.
        let holder = person.$count.sink { value in
            first.append(value)
            if value == 1 {
                entered.signal()
                removed.wait()
            }
        }
        let others = LockedLog<Int>()
        let handles = ObsHandles()
        let sentinels = LiveCounter()   // the objects the removed observers captured
        observe(person, count: 20, for: removal, into: others, handles: handles, sentinels: sentinels)
        #expect(person.countStorage.observerCount == 21)

        // A thread of its own: one from a pool could wait for the blocked test threads.
        Thread {
            entered.wait()
            handles.end(removal)   // while the model's thread is inside the delivery of 1
            removed.signal()
        }.start()
        person.count = 1
        // The delivery has ended: the removals are applied, and what they captured is gone.
        #expect(person.countStorage.observerCount == 1)
        #expect(sentinels.live == 0)
        person.count = 2

        #expect(first.items == [0, 1, 2])
        #expect(others.items == Array(repeating: 0, count: 20), "the initial values only: nothing after the removal")
        withExtendedLifetime(holder) {}
    }

    /// A removal from another thread does not wait for the delivery, so a callback may
    /// wait for the remover (a lock of its own, `DispatchQueue.sync`) without deadlock.
    @Test func aCallbackThatWaitsForTheRemoverDoesNotDeadlock() {
        let person = ObsPerson()
        let removerDone = DispatchSemaphore(value: 0)
        let handles = ObsHandles()
        let values = LockedLog<Int>()
        let holder = person.$count.sink { value in
            values.append(value)
            guard value == 1 else { return }
            Thread {
                handles.end(.cancel)
                removerDone.signal()
            }.start()
            removerDone.wait()   // waits for a removal that needs this channel
        }
        handles.cancellables.append(person.$count.sink { values.append(-$0) })
        person.count = 1
        person.count = 2
        #expect(values.items == [0, -0, 1, 2])
        #expect(person.countStorage.observerCount == 1)
        withExtendedLifetime(holder) {}
    }

    /// A callback hands the model to another thread and waits for it: a set made there
    /// is delivered by the delivering thread, after the current value, to everyone.
    @Test func aSetOnAThreadThatACallbackWaitsForIsDeliveredAfterTheCurrentValue() {
        let person = ObsPerson()
        let handOff = UncheckedBox(person)   // one thread at a time: the callback waits
        let first = LockedLog<Int>()
        let second = LockedLog<Int>()
        let a = person.$count.sink { value in
            first.append(value)
            guard value == 1 else { return }
            runOnAnotherThread {
                handOff.value.count = 2
            }
            first.append(-1)   // back in the callback: 2 is not delivered yet
        }
        let b = person.$count.sink { second.append($0) }
        person.count = 1
        #expect(first.items == [0, 1, -1, 2])
        #expect(second.items == [0, 1, 2])
        #expect(person.count == 2)
        withExtendedLifetime((a, b)) {}
    }

    /// A subscription there: its initial value (the current one) arrives before the
    /// subscription returns, as KVO's `.initial` does, and it receives every later value.
    @Test func aSubscriptionOnAThreadThatACallbackWaitsForStartsAfterTheCurrentValue() {
        let person = ObsPerson()
        let handOff = UncheckedBox(person)   // one thread at a time: the callback waits
        let late = LockedLog<Int>()
        let bag = LockedLog<AnyCancellable>()
        let a = person.$count.sink { value in
            guard value == 1 else { return }
            runOnAnotherThread {
                bag.append(handOff.value.$count.sink { late.append($0) })
                #expect(late.items == [1], "the initial value arrives before sink returns")
            }
        }
        person.count = 1
        #expect(late.items == [1])
        person.count = 2
        #expect(late.items == [1, 2])
        #expect(person.countStorage.observerCount == 2)
        withExtendedLifetime(a) {}
    }

    // What the delivering thread does itself after a hand-off comes after what the other
    // thread did: the order in which the model's state changed.

    /// A set on the other thread, then one by the callback itself.
    @Test func aHandOffSetThenAReentrantSetArriveInOrder() {
        let person = ObsPerson()
        let handOff = UncheckedBox(person)   // one thread at a time: the callback waits
        let first = LockedLog<Int>()
        let second = LockedLog<Int>()
        let a = person.$count.sink { value in
            first.append(value)
            guard value == 1 else { return }
            runOnAnotherThread {
                handOff.value.count = 2
            }
            person.count = 3
        }
        let b = person.$count.sink { second.append($0) }
        person.count = 1
        #expect(person.count == 3)
        #expect(first.items == [0, 1, 2, 3])
        #expect(second.items == [0, 1, 2, 3])
        withExtendedLifetime((a, b)) {}
    }

    /// A subscription on the other thread, then a set by the callback: the new subscriber
    /// gets its initial value, then the set.
    @Test func aHandOffSubscriptionThenAReentrantSetArriveInOrder() {
        let person = ObsPerson()
        let handOff = UncheckedBox(person)   // one thread at a time: the callback waits
        let late = LockedLog<Int>()
        let bag = LockedLog<AnyCancellable>()
        let a = person.$count.sink { value in
            guard value == 1 else { return }
            runOnAnotherThread {
                bag.append(handOff.value.$count.sink { late.append($0) })
            }
            person.count = 2
        }
        person.count = 1
        #expect(late.items == [1, 2])
        withExtendedLifetime(a) {}
    }

    /// A set on the other thread, then a subscription by the callback: the subscriber
    /// starts from the value set there, and gets nothing it was not subscribed for.
    @Test func aHandOffSetThenAReentrantSubscriptionStartsFromIt() {
        let person = ObsPerson()
        let handOff = UncheckedBox(person)   // one thread at a time: the callback waits
        let late = LockedLog<Int>()
        let lateWithoutInitial = LockedLog<Int>()
        let bag = LockedLog<AnyCancellable>()
        let a = person.$count.sink { value in
            guard value == 1 else { return }
            runOnAnotherThread {
                handOff.value.count = 2
            }
            bag.append(person.$count.sink { late.append($0) })
            bag.append(person.$count.dropFirst().sink { lateWithoutInitial.append($0) })
        }
        person.count = 1
        #expect(late.items == [2])
        #expect(lateWithoutInitial.items == [], "2 was set before it subscribed")
        person.count = 3
        #expect(late.items == [2, 3])
        #expect(lateWithoutInitial.items == [3])
        withExtendedLifetime(a) {}
    }

    /// `unbind(_:)` on a thread that a callback waits for: it completes, and the
    /// listener hears nothing after the value in flight.
    @Test func anUnbindOnAThreadThatACallbackWaitsForCompletes() {
        final class Listener: Sendable {}
        let person = ObsPerson()
        let listener = Listener()
        let handOff = UncheckedBox(person)   // one thread at a time: the callback waits
        let heard = LockedLog<Int>()
        let unbound = LockedLog<String>()
        let holder = person.$count.sink { value in
            guard value == 2 else { return }
            runOnAnotherThread {
                handOff.value.$count.unbind(listener)
                unbound.append("unbound")
            }
        }
        person.$count.bind(listener, skipInitialValue: true) { _, value in heard.append(value) }
        person.count = 1
        person.count = 2
        person.count = 3
        #expect(unbound.items == ["unbound"])
        // The holder comes first: the listener was already unbound when 2 reached it.
        #expect(heard.items == [1])
        #expect(person.countStorage.observerCount == 1)
        withExtendedLifetime((holder, listener)) {}
    }

    /// The model's last reference dropped on a thread that a callback waits for: the
    /// release completes, and every observer hears the end from the delivering thread
    /// once the current value is delivered (never from two threads at once), and what
    /// they captured is gone then. (A new subscriber's initial value is delivered without
    /// holding the model, so its callback can be where the model goes.)
    @Test func releasingTheModelOnAThreadThatACallbackWaitsForEndsEverything() {
        // The only strong reference to the model; one thread at a time uses it (the
        // callback's thread waits).
        let box = Locked<ObsPerson?>(ObsPerson())
        weak let weakPerson = box.value
        let publisher = box.value!.$count
        let events = LockedLog<String>()
        weak var capturedBySink: Canary?
        weak var capturedByHolder: Canary?
        func subscribeSink() -> AnyCancellable {
            let sentinel = Canary()
            capturedBySink = sentinel
            return publisher.sink { value in withExtendedLifetime(sentinel) { events.append("sink \(value)") } }
        }
        func subscribeHolder() -> AnyCancellable {
            let sentinel = Canary()
            capturedByHolder = sentinel
            return publisher.sink { value in
                withExtendedLifetime(sentinel) {
                    runOnAnotherThread {
                        // Taken out under the lock, dropped after it: the model
                        // deinitialises on that thread, outside the lock.
                        _ = box.withLock { $0.take() }
                        events.append("released")
                    }
                    events.append("back \(value)")
                }
            }
        }
        let sink = subscribeSink()
        let completing = publisher.sink(
            receiveCompletion: { _ in events.append("finished") }, receiveValue: { events.append("completing \($0)") })
        let holder = subscribeHolder()   // its initial value, 0, is delivered in this call
        #expect(weakPerson == nil)
        #expect(events.items == ["sink 0", "completing 0", "released", "back 0", "finished"])
        #expect(capturedBySink == nil, "released once the delivery ended, while its AnyCancellable is kept")
        #expect(capturedByHolder == nil, "the running callback's closure too, after it returned")
        withExtendedLifetime((sink, completing, holder)) {}
    }

    /// The last observer of a computed key path leaves, on another thread, while a change
    /// of it is being evaluated: the observation lets go of its channel then, and the
    /// change still ends safely on it (the link delivering the change keeps the channel;
    /// run under AddressSanitizer in CI), telling nobody.
    @Test func theLastObserverOfAComputedKeyPathLeavingDuringAnEvaluation() {
        let root = ObsLeavingRoot()
        let log = LockedLog<String>()
        let handles = ObsHandles()
        handles.cancellables.append(root.publisher(for: \.loudName).sink { log.append($0) })
        root.duringEvaluation.value = { runOnAnotherThread { handles.end(.cancel) } }
        root.source.name = "France"
        #expect(root.duringEvaluation.value == nil, "the hook ran, during the change's evaluation")
        root.source.name = "Spain"
        #expect(log.items == ["UK"])
    }
}
