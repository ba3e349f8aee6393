import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// Owners bound, released and cancelled on some threads while values are sent on others.
// These are meant for `swift test --sanitize=thread`: no crash, no race, no deadlock, and
// every binding's token released once its owner is gone.

@Suite("Bindings: threads", .serialized)
struct BindThreadingTests {
    /// Sends values on thread 0 until the other threads are done (at most `limit`).
    private static func sendWhileOthersWork(
        _ send: @escaping @Sendable (Int) -> Void, workers: Int, limit: Int = 20_000,
        _ work: @escaping @Sendable () -> Void
    ) {
        let finished = Counter()
        runConcurrently(threads: workers + 1) { index in
            if index == 0 {
                var value = 0
                while finished.value < workers, value < limit {
                    value += 1
                    send(value)
                }
            } else {
                work()
                finished.increment()
            }
        }
    }

    @Test func ownersReleasedOnAnotherThreadWhileValuesAreSent() {
        let source = UncheckedBox(PassthroughSubject<Int, Never>())
        let tokens = LockedLog<WeakBox<Canary>>()
        Self.sendWhileOthersWork({ source.value.send($0) }, workers: 2) {
            for _ in 0..<100 {
                let owner = BindCountingOwner()
                let token = Canary()
                tokens.append(WeakBox(token))
                owner.reactive.counting(token) <~ source.value
                sched_yield()   // let a value or two reach it
                // `owner` and `token` go here, on this thread, while thread 0 sends.
            }
        }
        #expect(tokens.items.count == 200)
        #expect(tokens.items.allSatisfy { $0.object == nil })
    }

    @Test func returnedCancellablesCancelledOnAnotherThreadWhileValuesAreSent() {
        let source = UncheckedBox(PassthroughSubject<Int, Never>())
        let tokens = LockedLog<WeakBox<Canary>>()
        do {
            let owner = BindCountingOwner()
            let bindings = LockedLog<AnyCancellable>()
            for _ in 0..<100 {
                let token = Canary()
                tokens.append(WeakBox(token))
                bindings.append(owner.reactive.counting(token) <~ source.value)
            }
            Self.sendWhileOthersWork({ source.value.send($0) }, workers: 1) {
                for binding in bindings.items {
                    binding.cancel()
                    sched_yield()
                }
            }
            let afterCancel = owner.received.load(ordering: .relaxed)
            source.value.send(-1)
            #expect(owner.received.load(ordering: .relaxed) == afterCancel)
        }
        #expect(tokens.items.count == 100)
        #expect(tokens.items.allSatisfy { $0.object == nil })
    }

    @Test func observableValueUpdatedOnOneThreadWhileOwnersComeAndGoOnAnother() {
        let model = UncheckedBox(ObservableValue(0))
        let tokens = LockedLog<WeakBox<Canary>>()
        Self.sendWhileOthersWork({ model.value.update($0) }, workers: 1) {
            for _ in 0..<100 {
                let owner = BindCountingOwner()
                let token = Canary()
                tokens.append(WeakBox(token))
                owner.reactive.counting(token) <~ model.value
            }
        }
        #expect(tokens.items.count == 100)
        #expect(tokens.items.allSatisfy { $0.object == nil })
    }

    @Test func mainActorOwnersReleasedWhileValuesAreSentFromAnotherThread() async {
        let source = UncheckedBox(PassthroughSubject<String, Never>())
        let tokens = LockedLog<WeakBox<Canary>>()
        await Task { @MainActor in
            let sending = Task.detached {
                for value in 0..<500 { source.value.send("\(value)") }
            }
            for _ in 0..<50 {
                let status = BindStatusLine()
                let token = Canary()
                tokens.append(WeakBox(token))
                BindingSink(owner: status) { @MainActor status, text in
                    withExtendedLifetime(token) { status.text = text }
                } <~ source.value
                await Task.yield()
            }
            await sending.value
            await drainMainQueue()
        }.value
        #expect(tokens.items.count == 50)
        #expect(tokens.items.allSatisfy { $0.object == nil })
    }

    @Test func listenersReleasedOnAnotherThreadWhileValuesAreUpdated() {
        let value = UncheckedBox(ObservableValue(0))
        let calls = Counter()
        Self.sendWhileOthersWork({ value.value.update($0) }, workers: 1) {
            for index in 0..<100 {
                let listener = Canary()
                value.value.bind(listener) { _, _ in calls.increment() }
                if index.isMultiple(of: 2) { value.value.unbind(listener) }
            }
        }
        value.value.update(-1)        // drops every released listener
        let before = calls.value
        value.value.update(-2)
        #expect(calls.value == before)
        #expect(value.value.listenerChannel.observerCount == 0)
    }
}
