import Dispatch
import Foundation
import Testing
@testable import Bindings

// Owners bound, released and cancelled on some threads while values are sent on others.
// These are meant for `swift test --sanitize=thread`: no crash, no race, no deadlock, and
// every binding's token released once its owner is gone.

@Suite("Bindings: threads")
struct BindThreadingTests {
    @Test func ownersReleasedOnAnotherThreadWhileValuesAreSent() {
        let source = BindUnchecked(PassthroughSubject<Int, Never>())
        let stop = BindCounter()
        let tokens = BindLog<BindUncheckedWeak<BindToken>>()
        let released = BindCounter()
        bindRunConcurrently(threads: 3) { index in
            if index == 0 {
                var value = 0
                while stop.count == 0 {
                    value += 1
                    source.value.send(value)
                }
            } else {
                for _ in 0..<300 {
                    let owner = BindCountingOwner()
                    let token = BindToken()
                    tokens.append(BindUncheckedWeak(token))
                    owner.reactive.counting(token) <~ source.value
                    while owner.received.load(ordering: .relaxed) == 0 { sched_yield() }
                    // `owner` and `token` go here, on this thread, while index 0 sends.
                }
                if released.increment() == 2 { stop.increment() }
            }
        }
        #expect(tokens.items.count == 600)
        #expect(tokens.items.allSatisfy { $0.object == nil })
    }

    @Test func returnedCancellablesCancelledOnAnotherThreadWhileValuesAreSent() {
        let source = BindUnchecked(PassthroughSubject<Int, Never>())
        let tokens = BindLog<BindUncheckedWeak<BindToken>>()
        do {
            let owner = BindCountingOwner()
            let bindings = BindLog<AnyCancellable>()
            for _ in 0..<200 {
                let token = BindToken()
                tokens.append(BindUncheckedWeak(token))
                bindings.append(owner.reactive.counting(token) <~ source.value)
            }
            bindRunConcurrently(threads: 2) { index in
                if index == 0 {
                    for value in 0..<2_000 { source.value.send(value) }
                } else {
                    for binding in bindings.items { binding.cancel() }
                }
            }
            let afterCancel = owner.received.load(ordering: .relaxed)
            source.value.send(-1)
            #expect(owner.received.load(ordering: .relaxed) == afterCancel)
        }
        #expect(tokens.items.count == 200)
        #expect(tokens.items.allSatisfy { $0.object == nil })
    }

    @Test func observableValueUpdatedOnOneThreadWhileOwnersComeAndGoOnAnother() {
        let model = BindUnchecked(ObservableValue(0))
        let stop = BindCounter()
        let tokens = BindLog<BindUncheckedWeak<BindToken>>()
        bindRunConcurrently(threads: 2) { index in
            if index == 0 {
                var value = 0
                while stop.count == 0 {
                    value += 1
                    model.value.update(value)
                }
            } else {
                for _ in 0..<300 {
                    let owner = BindCountingOwner()
                    let token = BindToken()
                    tokens.append(BindUncheckedWeak(token))
                    owner.reactive.counting(token) <~ model.value
                }
                stop.increment()
            }
        }
        #expect(tokens.items.count == 300)
        #expect(tokens.items.allSatisfy { $0.object == nil })
    }

    @Test func listenersReleasedOnAnotherThreadWhileValuesAreUpdated() {
        let value = BindUnchecked(ObservableValue(0))
        let stop = BindCounter()
        let calls = BindCounter()
        bindRunConcurrently(threads: 2) { index in
            if index == 0 {
                var next = 0
                while stop.count == 0 {
                    next += 1
                    value.value.update(next)
                }
            } else {
                for _ in 0..<300 {
                    let listener = BindToken()
                    value.value.bind(listener) { _, _ in calls.increment() }
                    if Bool.random() { value.value.unbind(listener) }
                }
                stop.increment()
            }
        }
        value.value.update(-1)        // drops every released listener
        let before = calls.count
        value.value.update(-2)
        #expect(calls.count == before)
        #expect(value.value.listenerChannel.observerCount == 0)
    }
}

/// A weak reference that test threads can share. `@unchecked Sendable`: a weak reference
/// is loaded and cleared atomically by the runtime, and `object` is never reassigned.
final class BindUncheckedWeak<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}
