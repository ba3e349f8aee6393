import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// Closures written on the main actor are main-actor isolated (the compiler lets them
// touch main-actor state), so sinks, inline bindings and listeners made there run them
// on the main thread only, whatever thread sends the value.

@Suite("Bindings: closures made on the main actor")
@MainActor
struct BindCallerIsolationTests {
    private func sendFromBackground(_ subject: PassthroughSubject<String, Never>, _ values: [String]) {
        let box = UncheckedBox(subject)
        runOnAnotherThread { for value in values { box.value.send(value) } }
    }

    @Test func sinkMadeOnTheMainActorRunsOnTheMainThread() async {
        let label = BindLabel()
        let log = BindMainLog()
        let sink = BindingSink(owner: label) { _, value in log.record(value) }   // touches main-actor state
        #expect(sink.delivery == .mainActor)
        let source = PassthroughSubject<String, Never>()
        sink <~ source
        source.send("m1")
        #expect(log.values == ["m1"])
        sendFromBackground(source, ["b1", "b2"])
        source.send("m2")
        await drainMainQueue()
        #expect(log.values == ["m1", "b1", "b2", "m2"])
        #expect(log.onMain == [true, true, true, true])
    }

    @Test func sinkWithACompletionMadeOnTheMainActor() async {
        let label = BindLabel()
        let log = BindMainLog()
        let sink = BindingSink<BindLabel, String>(
            owner: label, receiveValue: { _, value in log.record(value) },
            receiveCompletion: { _ in log.record("finished") })
        let source = PassthroughSubject<String, Never>()
        sink <~ source
        let box = UncheckedBox(source)
        runOnAnotherThread {
            box.value.send("b")
            box.value.send(completion: .finished)
        }
        await drainMainQueue()
        #expect(log.values == ["b", "finished"])
        #expect(log.onMain == [true, true])
    }

    @Test func voidAndNeverSinksMadeOnTheMainActor() async {
        let label = BindLabel()
        let log = BindMainLog()
        let taps = PassthroughSubject<Void, Never>()
        let done = PassthroughSubject<Never, Never>()
        BindingSink(owner: label) { (_: BindLabel) in log.record("tap") } <~ taps
        BindingSink(owner: label) { (_: BindLabel) in log.record("done") } <~ done
        let box = UncheckedBox((taps, done))
        runOnAnotherThread {
            box.value.0.send()
            box.value.1.send(completion: .finished)
        }
        await drainMainQueue()
        #expect(log.values == ["tap", "done"])
        #expect(log.onMain == [true, true])
    }

    @Test func inlineBindingMadeOnTheMainActorRunsOnTheMainThread() async {
        let label = BindLabel()
        let log = BindMainLog()
        let source = PassthroughSubject<String, Never>()
        source.bind(to: label) { _, value in log.record(value) }
        source.bind(to: label, on: ImmediateScheduler.shared) { _, value in log.record("scheduled " + value) }
        sendFromBackground(source, ["b1", "b2"])
        #expect(log.values == [])
        await drainMainQueue()
        #expect(log.values == ["b1", "scheduled b1", "b2", "scheduled b2"])
        #expect(log.onMain == [true, true, true, true])
    }

    @Test func listenerBoundOnTheMainActorRunsOnTheMainThread() async {
        let title = ObservableValue("t0")
        let listener = BindLabel()
        let log = BindMainLog()
        title.bind(listener) { _, value in log.record(value) }
        #expect(log.values == ["t0"])
        let box = UncheckedBox(title)
        runOnAnotherThread {
            box.value.update("b1")
            box.value.update("b2")
        }
        title.update("m1")                                // queues behind b1 and b2
        #expect(log.values == ["t0"])
        await drainMainQueue()
        #expect(log.values == ["t0", "b1", "b2", "m1"])
        #expect(log.onMain == [true, true, true, true])
    }

    @Test func unbindDropsListenerValuesStillQueuedForTheMainThread() async {
        let title = ObservableValue("t0")
        let listener = BindLabel()
        let log = BindMainLog()
        title.bind(listener, skipInitialValue: true) { _, value in log.record(value) }
        let box = UncheckedBox(title)
        runOnAnotherThread { box.value.update("b1") }
        title.unbind(listener)
        await drainMainQueue()
        #expect(log.values == [])
    }

    @Test func listenerOfAnObservedPropertyBoundOnTheMainActor() async {
        let person = UncheckedBox(BindPerson())
        let listener = BindLabel()
        let log = BindMainLog()
        person.value.$firstName.bind(listener, skipInitialValue: true) { _, name in log.record(name) }
        runOnAnotherThread { person.value.firstName = "Grace" }
        await drainMainQueue()
        #expect(log.values == ["Grace"])
        #expect(log.onMain == [true])
    }

    @Test func keyPathTargetsOfPlainOwnersStillRunWhereValuesAreSent() {
        // The library makes these sinks itself, outside any actor: a plain owner's
        // property is set on the sending thread even when bound on the main actor.
        let label = BindLabel()
        #expect(label.reactive.text.delivery == .sendingThread)
        let source = PassthroughSubject<String, Never>()
        label.reactive.name <~ source
        let box = UncheckedBox(source)
        runOnAnotherThread { box.value.send("b") }
        #expect(label.nameSets == ["b"])
    }
}

/// Sinks made outside any actor deliver on the sending thread.
@Suite("Bindings: closures made outside any actor")
struct BindNonisolatedCallerTests {
    @Test func sinkMadeOutsideAnyActorRunsOnTheSendingThread() {
        let label = BindLabel()
        #expect(BindingSink(owner: label) { $0.name = $1 }.delivery == .sendingThread)
        #expect(label.reactive.shouting.delivery == .sendingThread)
    }
}
