import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// Main-actor owners (an isolated conformance) and `@MainActor` sinks: the setter never
// runs off the main thread; synchronously when the value is sent there, through the main
// queue in order otherwise.

@MainActor final class BindStatusLine {
    var text = "" {
        didSet {
            sets.append(text)
            onMain.append(MainThread.isCurrent)
        }
    }
    var sets: [String] = []
    var onMain: [Bool] = []
    var subscriptions = Set<AnyCancellable>()
}

extension BindStatusLine: @MainActor BindingOwner {}

extension Reactive where Base: BindStatusLine {
    /// A custom sink for a main-actor owner: its closure is isolated to the main actor,
    /// and so is the member (the owner's conformance is).
    @MainActor var shouting: BindingSink<Base, String> {
        BindingSink(owner: base) { @MainActor status, text in status.text = text.uppercased() }
    }
}

/// What a `@MainActor` sink on a plain owner saw.
@MainActor final class BindMainLog {
    var values: [String] = []
    var onMain: [Bool] = []
    func record(_ value: String) {
        values.append(value)
        onMain.append(MainThread.isCurrent)
    }
}

@Suite("Bindings: main-actor owners and sinks")
@MainActor
struct BindMainActorTests {
    /// Sends `values` from another thread and returns when they are sent (the main thread
    /// is blocked meanwhile, so none of them can be delivered yet).
    private func sendFromBackground(_ subject: PassthroughSubject<String, Never>, _ values: [String]) {
        let box = UncheckedBox(subject)
        runOnAnotherThread {
            for value in values { box.value.send(value) }
        }
    }

    @Test func mainThreadIsDetected() {
        #expect(MainThread.isCurrent)
        let off = LockedLog<Bool>()
        runOnAnotherThread { off.append(MainThread.isCurrent) }
        DispatchQueue(label: "BindMainActorTests.queue").sync { off.append(MainThread.isCurrent) }
        #expect(off.items == [false, false])
    }

    @Test func valuesSentOnTheMainThreadArriveSynchronously() {
        let status = BindStatusLine()
        let source = CurrentValueSubject<String, Never>("a")
        status.reactive.text <~ source
        #expect(status.sets == ["a"])
        source.send("b")
        #expect(status.sets == ["a", "b"])
        #expect(status.onMain == [true, true])
    }

    @Test func valuesSentFromAnotherThreadArriveOnTheMainThreadInOrder() async {
        let status = BindStatusLine()
        let source = PassthroughSubject<String, Never>()
        status.reactive.text <~ source
        let values = (1...50).map { "b\($0)" }
        sendFromBackground(source, values)
        #expect(status.sets == [])                      // not yet: they go through the main queue
        await drainMainQueue()
        #expect(status.sets == values)
        #expect(status.onMain == Array(repeating: true, count: 50))
    }

    @Test func aValueSentOnTheMainThreadQueuesBehindPendingOnes() async {
        let status = BindStatusLine()
        let source = PassthroughSubject<String, Never>()
        status.reactive.text <~ source
        source.send("m1")
        #expect(status.sets == ["m1"])
        sendFromBackground(source, ["b1", "b2"])
        source.send("m2")                               // b1 and b2 are still queued
        #expect(status.sets == ["m1"])
        await drainMainQueue()
        #expect(status.sets == ["m1", "b1", "b2", "m2"])
        source.send("m3")                               // nothing queued: at once again
        #expect(status.sets == ["m1", "b1", "b2", "m2", "m3"])
        #expect(status.onMain == Array(repeating: true, count: 5))
    }

    @Test func valuesSentJustBeforeTheCompletionStillArrive() async {
        let status = BindStatusLine()
        let source = PassthroughSubject<String, Never>()
        status.reactive.text <~ source
        let box = UncheckedBox(source)
        runOnAnotherThread {
            box.value.send("last")
            box.value.send(completion: .finished)
        }
        await drainMainQueue()
        #expect(status.sets == ["last"])
        #expect(status.onMain == [true])
    }

    @Test func finitePublisherDeliveredOnAnotherQueue() async {
        let status = BindStatusLine()
        let queue = DispatchQueue(label: "BindMainActorTests.finite")
        status.reactive.text <~ Just("only").receive(on: queue)
        queue.sync {}
        await drainMainQueue()
        #expect(status.sets == ["only"])
        #expect(status.onMain == [true])
    }

    @Test func finitePublisherBoundFromAnotherThreadToAMainActorSink() async {
        let label = BindLabel()
        let log = BindMainLog()
        let sink = UncheckedBox(BindingSink(owner: label) { @MainActor _, value in log.record(value) })
        runOnAnotherThread { sink.value <~ Just("only") }
        await drainMainQueue()
        #expect(log.values == ["only"])
        #expect(log.onMain == [true])
        #expect(label.subscriptions.isEmpty)
    }

    @Test func cancelDropsValuesStillQueuedForTheMainThread() async {
        let status = BindStatusLine()
        let source = PassthroughSubject<String, Never>()
        let binding = status.reactive.text <~ source
        sendFromBackground(source, ["b1", "b2"])
        binding.cancel()
        await drainMainQueue()
        #expect(status.sets == [])
    }

    @Test func releasedOwnerDropsValuesStillQueuedForTheMainThread() async {
        let source = PassthroughSubject<String, Never>()
        weak var weakStatus: BindStatusLine?
        weak var weakToken: Canary?
        let log = BindMainLog()
        do {
            let status = BindStatusLine()
            weakStatus = status
            let token = Canary()
            weakToken = token
            BindingSink(owner: status) { @MainActor _, value in
                withExtendedLifetime(token) { log.record(value) }
            } <~ source
            sendFromBackground(source, ["b1"])
        }
        #expect(weakStatus == nil)
        await drainMainQueue()
        #expect(log.values == [])
        #expect(weakToken == nil)
    }

    @Test func customMainActorSinkOnAMainActorOwner() async {
        let status = BindStatusLine()
        let source = PassthroughSubject<String, Never>()
        status.reactive.shouting <~ source
        source.send("m")
        sendFromBackground(source, ["b"])
        await drainMainQueue()
        #expect(status.sets == ["M", "B"])
        #expect(status.onMain == [true, true])
    }

    @Test func inlineBindingToAMainActorOwner() async {
        let status = BindStatusLine()
        let source = PassthroughSubject<String, Never>()
        source.bind(to: status.reactive.text, on: ImmediateScheduler.shared)
        sendFromBackground(source, ["b1", "b2"])
        await drainMainQueue()
        #expect(status.sets == ["b1", "b2"])
        #expect(status.onMain == [true, true])
    }

    @Test func mainQueueSchedulerForAMainActorOwner() async {
        let status = BindStatusLine()
        let source = PassthroughSubject<String, Never>()
        source.bind(to: status.reactive.text, on: DispatchQueue.main)
        sendFromBackground(source, ["b1", "b2"])
        await drainMainQueue()
        #expect(status.sets == ["b1", "b2"])
        #expect(status.onMain == [true, true])
    }

    @Test func mainActorClosureSinkOnAPlainOwner() async {
        let label = BindLabel()
        let log = BindMainLog()
        let source = PassthroughSubject<String, Never>()
        BindingSink(owner: label) { @MainActor _, value in log.record(value) } <~ source
        source.send("m1")
        #expect(log.values == ["m1"])                    // on the main thread: at once
        sendFromBackground(source, ["b1", "b2"])
        source.send("m2")
        #expect(log.values == ["m1"])
        await drainMainQueue()
        #expect(log.values == ["m1", "b1", "b2", "m2"])
        #expect(log.onMain == [true, true, true, true])
    }

    @Test func mainActorClosureSinkWithOnlyBackgroundValues() async {
        let label = BindLabel()
        let log = BindMainLog()
        let source = PassthroughSubject<String, Never>()
        let sink = BindingSink(owner: label) { @MainActor (_: BindLabel, value: String) in log.record(value) }
        source ~> sink
        sendFromBackground(source, (1...20).map { "b\($0)" })
        await drainMainQueue()
        #expect(log.values == (1...20).map { "b\($0)" })
        #expect(log.onMain == Array(repeating: true, count: 20))
    }
}
