import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// A binding from a property into a main-actor sink registers on the property's channel,
// as every property binding does (Sources/Bindings/Binding/PropertyBinding.swift), and
// keeps the main-actor rule of `BindMainActorTests`: at once when the value is set on the
// main actor, otherwise through the main queue, in order; nothing queued runs once the
// binding is cancelled or its owner is gone; the model's end comes after its values.

@Suite("Bindings: from a property into a main-actor sink")
@MainActor
struct BindMainActorPropertyTests {
    /// Sets `model.name` to each of `names` on another thread, and returns when they are
    /// set (the main thread waits meanwhile, so none of them can be delivered yet).
    private func setFromBackground(_ model: BindPerson, _ names: [String]) {
        let box = UncheckedBox(model)
        runOnAnotherThread {
            for name in names { box.value.firstName = name }
        }
    }

    @Test func valuesSetOnTheMainActorArriveAtOnce() {
        let model = BindPerson()
        let status = BindStatusLine()
        status.reactive.text <~ model.reactive.firstName
        #expect(status.sets == ["Ada"])
        model.firstName = "Grace"
        #expect(status.sets == ["Ada", "Grace"])
        #expect(status.onMain == [true, true])
    }

    @Test func valuesSetElsewhereArriveInOrderAndLaterOnesWaitBehindThem() async {
        let model = BindPerson()
        let status = BindStatusLine()
        status.reactive.text <~ model.$firstName
        setFromBackground(model, ["b1", "b2"])
        #expect(status.sets == ["Ada"])                  // not yet: through the main queue
        model.firstName = "m1"                           // b1 and b2 are still queued
        #expect(status.sets == ["Ada"])
        await drainMainQueue()
        #expect(status.sets == ["Ada", "b1", "b2", "m1"])
        model.firstName = "m2"                           // nothing queued: at once again
        #expect(status.sets == ["Ada", "b1", "b2", "m1", "m2"])
        #expect(status.onMain == Array(repeating: true, count: 5))
    }

    @Test func aComputedKeyPathIntoAMainActorClosureSink() async {
        let model = BindPerson()
        let label = BindLabel()
        let log = BindMainLog()
        BindingSink(owner: label) { @MainActor _, name in log.record(name) } <~ model.publisher(for: \.fullName)
        model.lastName = "Byron"
        setFromBackground(model, ["Grace"])
        #expect(log.values == ["Ada Lovelace", "Ada Byron"])
        await drainMainQueue()
        #expect(log.values == ["Ada Lovelace", "Ada Byron", "Grace Byron"])
        #expect(log.onMain == [true, true, true])
    }

    @Test func cancelDropsValuesStillQueued() async {
        let model = BindPerson()
        let status = BindStatusLine()
        let binding = status.reactive.text <~ model.reactive.firstName
        setFromBackground(model, ["b1", "b2"])
        binding.cancel()
        await drainMainQueue()
        #expect(status.sets == ["Ada"])
        model.firstName = "after"
        #expect(status.sets == ["Ada"])
    }

    @Test func aReleasedOwnerDropsValuesStillQueuedAndLetsGoOfTheSink() async {
        let model = BindPerson()
        let log = BindMainLog()
        weak var weakStatus: BindStatusLine?
        weak var weakToken: Canary?
        do {
            let status = BindStatusLine()
            weakStatus = status
            let token = Canary()
            weakToken = token
            BindingSink(owner: status) { @MainActor _, value in
                withExtendedLifetime(token) { log.record(value) }
            } <~ model.reactive.firstName
            setFromBackground(model, ["b1"])
        }
        #expect(weakStatus == nil)
        await drainMainQueue()
        #expect(log.values == ["Ada"])
        #expect(weakToken == nil)
    }

    @Test func theModelsEndComesAfterItsQueuedValues() async {
        let status = BindStatusLine()
        let log = BindMainLog()
        let sink = BindingSink(
            owner: status,
            receiveValue: { _, value in log.record(value) },
            receiveCompletion: { _ in log.record("end") })
        // The only reference to the model, handed to another thread, which releases it.
        let model = Locked<BindPerson?>(BindPerson())
        sink <~ model.withLock { $0! }.reactive.firstName
        runOnAnotherThread {
            model.withLock { $0!.firstName = "b1" }
            model.value = nil                            // the model goes: the binding ends
        }
        #expect(log.values == ["Ada"])
        await drainMainQueue()
        #expect(log.values == ["Ada", "b1", "end"])
        #expect(log.onMain == [true, true, true])
    }
}
