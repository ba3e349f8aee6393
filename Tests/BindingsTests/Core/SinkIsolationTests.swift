import BindingsTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Bindings

/// A model for the isolation tests.
private final class SinkIsolationModel: KeyValueObservable {
    @Observed var count = 0
}

/// Made in nonisolated code: the closure may run on any thread. Records, for each value,
/// whether it ran on the main queue (the main actor's executor).
private func sinkOnAnyThread(_ value: ObservableValue<Int>, _ onMain: Locked<[Bool]>) -> AnyCancellable {
    value.sink { _ in onMain.withLock { $0.append(MainThread.isCurrent) } }
}

/// Runs `body` on a worker thread while the main actor waits, blocked: what the worker
/// sends to the main queue cannot run before this returns.
@MainActor
private func onWorkerWhileMainWaits(_ body: @Sendable () -> Void) {
    DispatchQueue.global().sync(execute: body)
}

/// An actor that subscribes: its closures are isolated to it.
private actor SinkActor {
    private(set) var seen: [Int] = []
    private(set) var changes: [Int] = []
    private var subscription: AnyCancellable?
    private var token: KeyValueObservation?

    func subscribe(_ value: ObservableValue<Int>) {
        subscription = value.sink { v in
            self.assertIsolated()   // stops the test if it runs anywhere else
            self.seen.append(v)
        }
    }

    /// Makes a model of its own, observes it, and sets it twice: the handler runs on the
    /// actor later, once this method has returned.
    func observeAndSet() -> [Int] {
        let model = SinkIsolationModel()
        token = model.observe(\.count, options: [.new]) { _, change in
            self.assertIsolated()
            self.changes.append(change.newValue!)
        }
        model.count = 1
        model.count = 2
        return changes
    }

    /// Subscribes, then updates the value: returns what the closure had seen when the
    /// update returned.
    func subscribeAndUpdate(_ value: ObservableValue<Int>, to next: Int) -> [Int] {
        subscription = value.sink { v in
            self.assertIsolated()
            self.seen.append(v)
        }
        value.update(next)
        return seen
    }

    /// Observes a model of its own with `.initial`, then sets it: returns what the
    /// handler had seen when the set returned.
    func observeInitialAndSet() -> [Int] {
        let model = SinkIsolationModel()
        token = model.observe(\.count, options: [.initial, .new]) { _, change in
            self.assertIsolated()
            self.changes.append(change.newValue!)
        }
        model.count = 1
        return changes
    }

    func cancel() {
        subscription?.cancel()
        token?.invalidate()
    }

    /// An owner of the actor's, bound with a closure made here.
    final class Shelf: BindingOwner {
        var titles: [String] = []
        var subscriptions = Set<AnyCancellable>()
    }
    private let shelf = Shelf()
    var titles: [String] { shelf.titles }

    func bindSinkAndListener(to title: ObservableValue<String>) {
        let sink = BindingSink(owner: shelf) { (shelf: Shelf, value: String) in
            self.assertIsolated()
            shelf.titles.append("sink " + value)
        }
        sink <~ title
        title.bind(shelf, skipInitialValue: true) { shelf, value in
            self.assertIsolated()
            shelf.titles.append("listener " + value)
        }
    }

    /// Binds the shelf with `bind(to:)` and as a listener, then updates the title: returns
    /// the titles the closures had added when the update returned.
    func bindAndListenThenUpdate(_ title: ObservableValue<String>, to next: String) -> [String] {
        title.bind(to: shelf) { shelf, value in
            self.assertIsolated()
            shelf.titles.append("bind " + value)
        }
        title.bind(shelf) { shelf, value in
            self.assertIsolated()
            shelf.titles.append("listener " + value)
        }
        title.update(next)
        return shelf.titles
    }

    func bindShelf(to title: ObservableValue<String>) {
        title.bind(to: shelf) { shelf, value in
            self.assertIsolated()
            shelf.titles.append(value)
        }
    }
}

/// Waits (up to 5 s) until `done` holds.
private func eventually(_ done: @Sendable () async -> Bool) async {
    for _ in 0..<5000 {
        if await done() { return }
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// Lets the main queue run what was sent to it (the test runs on the main actor).
@MainActor
private func drainMainQueue() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// A `sink` called from main-actor code runs its closure on the main thread only, in the
/// order the values were sent, however they were sent (issue 16, item 1: the closure,
/// inferred to be main-actor isolated, was called on worker threads and stopped the
/// program). A `sink` made elsewhere runs on the sending thread, as before.
@Suite("Core: a sink made on the main actor runs there")
struct SinkIsolationTests {
    @MainActor
    @Test func valuesSentFromWorkerThreadsArriveOnTheMainThreadInOrder() async {
        let load = ObservableValue(0)
        var seen: [Int] = []
        var offMain = 0
        let c = load.sink { value in
            if !MainThread.isCurrent { offMain += 1 }
            seen.append(value)
        }
        // The threading guide's example: many workers update at once.
        onWorkerWhileMainWaits {
            DispatchQueue.concurrentPerform(iterations: 200) { load.update($0 + 1) }
        }
        #expect(seen == [0], "the updates wait for the main queue")
        await drainMainQueue()
        #expect(offMain == 0)
        #expect(seen.count == 201, "the initial value, then every update once")
        #expect(seen.first == 0)
        #expect(seen.last == load.value, "ends with the current value")
        withExtendedLifetime(c) {}
    }

    @MainActor
    @Test func aSetOnTheMainThreadIsDeliveredBeforeItReturns() {
        let model = SinkIsolationModel()
        var seen: [Int] = []
        let c = model.$count.sink { seen.append($0) }
        model.count = 1
        #expect(seen == [0, 1])
        let subject = PassthroughSubject<Int, Never>()
        var sent: [Int] = []
        let d = subject.sink { sent.append($0) }
        subject.send(7)
        #expect(sent == [7])
        withExtendedLifetime((c, d)) {}
    }

    @MainActor
    @Test func aValueSentOnTheMainThreadWaitsBehindOnesStillQueued() async {
        let model = SinkIsolationModel()
        var seen: [Int] = []
        let c = model.publisher(for: \.count).sink { seen.append($0) }
        // `nonisolated(unsafe)`: the model is set on a worker while the main actor waits,
        // blocked, so the two never touch it at once.
        nonisolated(unsafe) let unsafeModel = model
        onWorkerWhileMainWaits { unsafeModel.count = 1 }   // queued for the main queue
        model.count = 2                                 // on the main thread: behind 1
        #expect(seen == [0], "2 waits for 1")
        await drainMainQueue()
        #expect(seen == [0, 1, 2])
        withExtendedLifetime(c) {}
    }

    @MainActor
    @Test func cancellingOnTheMainThreadDropsWhatIsStillQueued() async {
        let subject = CurrentValueSubject<Int, Never>(0)
        var seen: [Int] = []
        let c = subject.sink { seen.append($0) }
        onWorkerWhileMainWaits { subject.send(1); subject.send(2) }
        c.cancel()
        await drainMainQueue()
        #expect(seen == [0], "nothing after cancel() returns")
    }

    @MainActor
    @Test func theTwoClosureSinkDeliversTheCompletionAfterTheValues() async {
        let subject = PassthroughSubject<Int, TestError>()
        var events: [String] = []
        let c = subject.sink(
            receiveCompletion: { events.append("\($0)") },
            receiveValue: { events.append("\($0)") })
        onWorkerWhileMainWaits {
            subject.send(1)
            subject.send(2)
            subject.send(completion: .failure(TestError.boom))
        }
        #expect(events.isEmpty)
        await drainMainQueue()
        #expect(events == ["1", "2", "\(Subscribers.Completion<TestError>.failure(.boom))"])
        withExtendedLifetime(c) {}
    }

    @MainActor
    @Test func aSinkMadeOutsideTheMainActorRunsOnTheSendingThread() async {
        let value = ObservableValue(0)
        let onMain = Locked<[Bool]>([])
        let c = sinkOnAnyThread(value, onMain)
        onWorkerWhileMainWaits { value.update(1) }
        // Delivered synchronously on the worker, before it returned.
        #expect(onMain.value == [true, false])
        withExtendedLifetime(c) {}
    }

    /// `observe` made on the main actor: the handler runs on the main thread, with the
    /// model and each change in order; `invalidate()` drops what is still queued.
    @MainActor
    @Test func aChangeHandlerMadeOnTheMainActorRunsThere() async {
        let model = SinkIsolationModel()
        var changes: [KeyValueObservedChange<Int>] = []
        var offMain = 0
        let token = model.observe(\.count, options: [.old, .new]) { observed, change in
            if !MainThread.isCurrent || observed !== model { offMain += 1 }
            changes.append(change)
        }
        // `nonisolated(unsafe)`: set on a worker while the main actor waits, blocked.
        nonisolated(unsafe) let unsafeModel = model
        onWorkerWhileMainWaits { unsafeModel.count = 1; unsafeModel.count = 2 }
        #expect(changes.isEmpty, "waiting for the main queue")
        await drainMainQueue()
        #expect(changes == [.set(new: 1, old: 0), .set(new: 2, old: 1)])
        #expect(offMain == 0)
        model.count = 3   // on the main thread: at once
        #expect(changes.last == .set(new: 3, old: 2))
        onWorkerWhileMainWaits { unsafeModel.count = 4 }
        token.invalidate()
        await drainMainQueue()
        #expect(changes.count == 3, "nothing after invalidate() returns")
    }

    /// A `sink` made in an actor's method runs its closure on that actor, in order,
    /// whatever thread sends (asynchronously: no thread can enter the actor at once).
    @Test func aSinkMadeOnAnotherActorRunsThereInOrder() async {
        let recorder = SinkActor()
        let value = ObservableValue(0)
        await recorder.subscribe(value)
        DispatchQueue.concurrentPerform(iterations: 100) { value.update($0 + 1) }
        await eventually { await recorder.seen.count == 101 }
        let seen = await recorder.seen
        #expect(seen.count == 101, "the initial value, then every update once")
        #expect(seen.first == 0)
        #expect(seen.last == value.value)
        await recorder.cancel()
        value.update(1000)
        try? await Task.sleep(for: .milliseconds(20))
        #expect(await recorder.seen.count == 101, "nothing after cancel()")
    }

    /// The same for a change handler made in an actor's method: the changes the actor
    /// makes itself reach it after the method that made them returns, in order.
    @Test func aChangeHandlerMadeOnAnotherActorRunsThere() async {
        let recorder = SinkActor()
        let atReturn = await recorder.observeAndSet()
        #expect(atReturn.isEmpty, "asynchronous, also for the actor's own sets")
        await eventually { await recorder.changes.count == 2 }
        #expect(await recorder.changes == [1, 2])
        await recorder.cancel()
    }

    /// What a `sink`, `observe`, `bind(to:)` or listener made in an actor's method gets
    /// while it subscribes (the current value, the `.initial` change) runs at once, on the
    /// actor, before the call returns, as everywhere else (SPEC: `.initial` fires before `observe` returns);
    /// what follows arrives asynchronously, in order, after it.
    @Test func anActorsSubscriptionGetsItsInitialValueBeforeTheCallReturns() async {
        let recorder = SinkActor()
        let value = ObservableValue(0)
        #expect(await recorder.subscribeAndUpdate(value, to: 1) == [0])
        await eventually { await recorder.seen.count == 2 }
        #expect(await recorder.seen == [0, 1])
        #expect(await recorder.observeInitialAndSet() == [0])
        await eventually { await recorder.changes.count == 2 }
        #expect(await recorder.changes == [0, 1])
        await recorder.cancel()
        let title = ObservableValue("a")
        #expect(await recorder.bindAndListenThenUpdate(title, to: "b") == ["bind a", "listener a"])
        await eventually { await recorder.titles.count == 4 }
        #expect(await recorder.titles == ["bind a", "listener a", "bind b", "listener b"])
    }

    /// An inline binding made on another actor runs its closure on that actor, in order.
    @Test func anInlineBindingMadeOnAnotherActorRunsThere() async {
        let recorder = SinkActor()
        let title = ObservableValue("a")
        await recorder.bindShelf(to: title)
        title.update("b")
        title.update("c")
        await eventually { await recorder.titles.count == 3 }
        #expect(await recorder.titles == ["a", "b", "c"])
    }

    /// A `BindingSink` closure and a listener's handler made on another actor run there.
    @Test func aBindingSinkAndAListenerMadeOnAnotherActorRunThere() async {
        let recorder = SinkActor()
        let title = ObservableValue("a")
        await recorder.bindSinkAndListener(to: title)
        title.update("b")
        await eventually { await recorder.titles.count == 3 }
        let titles = await recorder.titles
        #expect(titles.filter { $0.hasPrefix("sink") } == ["sink a", "sink b"])
        #expect(titles.filter { $0.hasPrefix("listener") } == ["listener b"])
    }
}
