import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// Where a binding runs is decided when it is made, from what the compiler knows there:
// an owner whose `BindingOwner` conformance is isolated to the main actor cannot satisfy
// `SendableMetatype`, so the compiler picks the overloads for such owners, and those only
// ever run on the main thread. No dynamic cast is involved, so this holds on runtimes
// whose casts do not check a conformance's isolation, and in release builds (CI runs
// this file with `-c release` too: the old bug only showed there).
//
// Every record below goes into a thread-safe log, so that a setter run off the main
// thread is recorded (and fails an expectation) instead of racing.

/// One set of a property, and whether it ran on the main thread.
struct IsoSet: Equatable, Sendable {
    let value: String
    let onMain: Bool
}

/// A main-actor owner with an isolated conformance. It records every set of `text`, and
/// every mutation of `subscriptions`, with the thread it ran on.
@MainActor final class IsoStatusLine {
    nonisolated let sets = LockedLog<IsoSet>()
    /// One entry per mutation of `subscriptions`: whether it ran on the main thread.
    nonisolated let storageMutations = LockedLog<Bool>()
    var text = "" { didSet { sets.append(IsoSet(value: text, onMain: MainThread.isCurrent)) } }
    var subscriptions = Set<AnyCancellable>() { didSet { storageMutations.append(MainThread.isCurrent) } }
}

extension IsoStatusLine: @MainActor BindingOwner {}

/// A plain owner (nonisolated conformance) that records every set with its thread.
final class IsoLabel: BindingOwner {
    let sets = LockedLog<IsoSet>()
    var text = "" { didSet { sets.append(IsoSet(value: text, onMain: MainThread.isCurrent)) } }
    var subscriptions = Set<AnyCancellable>()
}

/// Binds through an owner type the compiler cannot see: `T`'s conformance may be
/// isolated, so the binding is made for an owner of unknown isolation.
func isoBindGeneric<T: BindingOwner>(
    _ owner: T, _ keyPath: ReferenceWritableKeyPath<T, String>, to source: PassthroughSubject<String, Never>
) -> BindingDelivery {
    let target = owner.reactive[dynamicMember: keyPath]
    target <~ source
    return target.delivery
}

@Suite("Bindings: isolation captured when a binding is made")
@MainActor
struct BindIsolationCaptureTests {
    private let values = (1...20).map { "b\($0)" }

    /// Sends `values` from a new thread and returns once they are all sent. The main
    /// thread waits meanwhile, so nothing bound to the main thread can have run yet.
    private func sendFromBackground(_ subject: PassthroughSubject<String, Never>, _ values: [String]) {
        let box = UncheckedBox(subject)
        runOnAnotherThread { for value in values { box.value.send(value) } }
    }

    private func onMain(_ values: [String]) -> [IsoSet] {
        values.map { IsoSet(value: $0, onMain: true) }
    }

    // MARK: The compiler's choice

    @Test func theCompilerTellsTheTwoKindsOfOwnerApart() {
        let status = IsoStatusLine()
        let label = IsoLabel()
        #expect(status.reactive.text.delivery == .mainActor)
        #expect(label.reactive.text.delivery == .sendingThread)
        // Sinks made on the main actor are main-actor isolated either way.
        #expect(BindingSink(owner: status) { $0.text = $1 }.delivery == .mainActor)
        #expect(BindingSink(owner: label) { $0.text = $1 }.delivery == .mainActor)
    }

    // MARK: A main-actor owner

    @Test func keyPathTargetReceivesBackgroundValuesOnlyOnTheMainThreadInOrder() async {
        let status = IsoStatusLine()
        let source = PassthroughSubject<String, Never>()
        status.reactive.text <~ source
        sendFromBackground(source, values)
        #expect(status.sets.items == [])               // none ran on the sending thread
        await drainMainQueue()
        #expect(status.sets.items == onMain(values))
        #expect(status.text == "b20")
    }

    @Test func leftToRightOperatorAndLiftedTargets() async {
        let status = IsoStatusLine()
        let source = PassthroughSubject<String, Never>()
        source ~> status.reactive.text
        let lifted = PassthroughSubject<Int, Never>()
        status.reactive.text <~ lifted.map { "n\($0)" }
        let box = UncheckedBox((source, lifted))
        runOnAnotherThread {
            box.value.0.send("a")
            box.value.1.send(1)
            box.value.0.send("b")
        }
        #expect(status.sets.items == [])
        await drainMainQueue()
        #expect(status.sets.items == onMain(["a", "n1", "b"]))
    }

    @Test func mainThreadAndBackgroundValuesKeepTheirOrder() async {
        let status = IsoStatusLine()
        let source = PassthroughSubject<String, Never>()
        status.reactive.text <~ source
        source.send("m1")                                // on the main thread: at once
        #expect(status.sets.items == onMain(["m1"]))
        sendFromBackground(source, ["b1", "b2", "b3"])
        source.send("m2")                                // waits behind b1...b3
        #expect(status.sets.items == onMain(["m1"]))
        await drainMainQueue()
        #expect(status.sets.items == onMain(["m1", "b1", "b2", "b3", "m2"]))
    }

    @Test func inlineBindingReceivesBackgroundValuesOnlyOnTheMainThread() async {
        let status = IsoStatusLine()
        let source = PassthroughSubject<String, Never>()
        source.bind(to: status) { status, value in status.text = value }
        source.bind(to: status, on: ImmediateScheduler.shared) { status, value in status.text = "s" + value }
        sendFromBackground(source, ["b1", "b2"])
        #expect(status.sets.items == [])
        await drainMainQueue()
        #expect(status.sets.items == onMain(["b1", "sb1", "b2", "sb2"]))
    }

    @Test func listenerOfAnObservedPropertyRunsOnlyOnTheMainThread() async {
        let person = UncheckedBox(BindPerson())
        let status = IsoStatusLine()
        person.value.$firstName.bind(status) { status, name in status.text = name }
        #expect(status.sets.items == onMain(["Ada"]))
        runOnAnotherThread {
            person.value.firstName = "Grace"
            person.value.firstName = "Mary"
        }
        #expect(status.sets.items == onMain(["Ada"]))
        await drainMainQueue()
        #expect(status.sets.items == onMain(["Ada", "Grace", "Mary"]))
    }

    @Test func listenerOfAnObservableValueRunsOnlyOnTheMainThread() async {
        let title = UncheckedBox(ObservableValue("t0"))
        let status = IsoStatusLine()
        title.value.bind(status, skipInitialValue: true) { status, value in status.text = value }
        runOnAnotherThread { for value in ["t1", "t2", "t3"] { title.value.update(value) } }
        #expect(status.sets.items == [])
        await drainMainQueue()
        #expect(status.sets.items == onMain(["t1", "t2", "t3"]))
    }

    @Test func genericOwnerTypeBoundOnTheMainThreadRunsOnlyThere() async {
        let status = IsoStatusLine()
        let source = PassthroughSubject<String, Never>()
        #expect(isoBindGeneric(status, \.text, to: source) == .mainActor)
        sendFromBackground(source, ["b1", "b2"])
        #expect(status.sets.items == [])
        await drainMainQueue()
        #expect(status.sets.items == onMain(["b1", "b2"]))
    }

    @Test func subscriptionsAreOnlyMutatedOnTheMainThread() async {
        let status = IsoStatusLine()
        let source = PassthroughSubject<String, Never>()
        let title = UncheckedBox(ObservableValue("t0"))
        status.reactive.text <~ source                                           // stores a binding
        source.bind(to: status) { status, value in status.text = value }          // and another
        title.value.bind(status) { status, value in status.text = value }         // and a listener's handle
        #expect(status.subscriptions.count == 3)
        runOnAnotherThread {
            title.value.unbind(status)        // takes the handle out: through the main queue
        }
        sendFromBackground(source, ["b1"])
        await drainMainQueue()
        #expect(status.subscriptions.count == 2)
        #expect(status.storageMutations.items.count == 4)
        #expect(status.storageMutations.items.allSatisfy { $0 })
        #expect(status.sets.items == onMain(["t0", "b1", "b1"]))
    }

    @Test func unbindOnTheMainThreadTakesTheHandleOutAtOnce() {
        let status = IsoStatusLine()
        let title = ObservableValue("t0")
        title.bind(status) { status, value in status.text = value }
        #expect(status.subscriptions.count == 1)
        title.unbind(status)
        #expect(status.subscriptions.isEmpty)
        title.update("t1")
        #expect(status.sets.items == onMain(["t0"]))
        #expect(status.storageMutations.items == [true, true])
    }

    @Test func listenerOfAMainActorOwnerEndsTheMomentTheOwnerGoes() {
        let title = ObservableValue("t0")
        weak var weakToken: Canary?
        do {
            let status = IsoStatusLine()
            let token = Canary()
            weakToken = token
            title.bind(status) { status, value in withExtendedLifetime(token) { status.text = value } }
        }
        #expect(weakToken == nil)                        // released at once, not at the next value
        #expect(title.listenerChannel.observerCount == 0)
    }

    // MARK: A nonisolated owner

    @Test func plainOwnerBoundOnTheMainActorReceivesSynchronouslyOnTheSendingThread() {
        let label = IsoLabel()
        let source = PassthroughSubject<String, Never>()
        label.reactive.text <~ source
        let box = UncheckedBox(source)
        let seenBySender = LockedLog<[IsoSet]>()
        let sink = UncheckedBox(label)
        runOnAnotherThread {
            for value in ["b1", "b2", "b3"] {
                box.value.send(value)
                seenBySender.append(sink.value.sets.items)   // already there when `send` returns
            }
        }
        let offMain = ["b1", "b2", "b3"].map { IsoSet(value: $0, onMain: false) }
        #expect(label.sets.items == offMain)
        #expect(seenBySender.items == [Array(offMain.prefix(1)), Array(offMain.prefix(2)), offMain])
    }

    @Test func plainOwnerListenerStoresItsHandleAndEndsWithTheOwner() {
        let title = ObservableValue("t0")
        weak var weakToken: Canary?
        do {
            let label = IsoLabel()
            let token = Canary()
            weakToken = token
            title.bind(label) { label, value in withExtendedLifetime(token) { label.text = value } }
            #expect(label.subscriptions.count == 1)
            title.unbind(label)
            #expect(label.subscriptions.isEmpty)
            title.bind(label) { label, value in withExtendedLifetime(token) { label.text = value } }
        }
        #expect(weakToken == nil)
        #expect(title.listenerChannel.observerCount == 0)
    }
}

/// Bindings made outside any actor, on a thread that is not the main thread.
@Suite("Bindings: isolation captured off the main thread")
struct BindIsolationCaptureOffMainTests {
    @Test func plainOwnerBoundOffTheMainThreadReceivesOnTheSendingThread() {
        let results = LockedLog<[IsoSet]>()
        let deliveries = LockedLog<BindingDelivery>()
        runOnAnotherThread {
            let label = IsoLabel()
            let source = PassthroughSubject<String, Never>()
            let sink = BindingSink(owner: label) { $0.text = $1 }
            deliveries.append(label.reactive.text.delivery)
            deliveries.append(sink.delivery)
            label.reactive.text <~ source
            let box = UncheckedBox(source)
            runOnAnotherThread { box.value.send("other thread") }
            source.send("binding thread")
            results.append(label.sets.items)
        }
        #expect(deliveries.items == [.sendingThread, .sendingThread])
        #expect(results.items == [[
            IsoSet(value: "other thread", onMain: false), IsoSet(value: "binding thread", onMain: false),
        ]])
    }

    @Test func genericOwnerTypeBoundOffTheMainThreadRunsOnTheSendingThread() {
        let results = LockedLog<[IsoSet]>()
        let deliveries = LockedLog<BindingDelivery>()
        runOnAnotherThread {
            let label = IsoLabel()
            let source = PassthroughSubject<String, Never>()
            deliveries.append(isoBindGeneric(label, \.text, to: source))
            source.send("b")
            results.append(label.sets.items)
        }
        #expect(deliveries.items == [.sendingThread])
        #expect(results.items == [[IsoSet(value: "b", onMain: false)]])
    }
}
