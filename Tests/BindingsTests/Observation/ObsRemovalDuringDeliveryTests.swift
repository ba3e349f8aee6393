import Dispatch
import Foundation
import Testing
@testable import Bindings

// An @Observed property's channel is ordered (see "Ordered channels" in Channel.swift):
// a removal made on another thread while the model's thread delivers a change is queued
// on the side and applied when that delivery ends. These tests hold a delivery open (its
// first observer waits) while another thread removes an observer, then check what each
// observer received, that the removal was applied, and that what it captured is gone.

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

/// Weak references to the objects the removed observers captured.
private final class ObsWeakSentinels: @unchecked Sendable {
    // `@unchecked Sendable`: filled before the other thread starts, read after it ends.
    var references: [() -> ObsSentinel?] = []
    var alive: Int { references.filter { $0() != nil }.count }
}

@Suite("Observation: removals from another thread during a delivery")
struct ObsRemovalDuringDeliveryTests {
    /// Makes `count` observers of `person.count` of the kind `removal` ends, each
    /// capturing a sentinel and recording into `log`.
    private func observe(
        _ person: ObsPerson, count: Int, for removal: ObsRemoval, into log: ObsLog<Int>,
        handles: ObsHandles, sentinels: ObsWeakSentinels
    ) {
        for _ in 0..<count {
            let sentinel = ObsSentinel()
            sentinels.references.append { [weak sentinel] in sentinel }
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
        let first = ObsLog<Int>()
        // The first observer holds the delivery of 1 open until the removals are made.
        let holder = person.$count.sink { value in
            first.append(value)
            if value == 1 {
                entered.signal()
                removed.wait()
            }
        }
        let others = ObsLog<Int>()
        let handles = ObsHandles()
        let sentinels = ObsWeakSentinels()
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
        #expect(sentinels.alive == 0)
        person.count = 2

        #expect(first.elements == [0, 1, 2])
        #expect(others.elements == Array(repeating: 0, count: 20), "the initial values only: nothing after the removal")
        withExtendedLifetime(holder) {}
    }

    /// A removal from another thread does not wait for the delivery, so a callback may
    /// wait for the remover (a lock of its own, `DispatchQueue.sync`) without deadlock.
    @Test func aCallbackThatWaitsForTheRemoverDoesNotDeadlock() {
        let person = ObsPerson()
        let removerDone = DispatchSemaphore(value: 0)
        let handles = ObsHandles()
        let values = ObsLog<Int>()
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
        #expect(values.elements == [0, -0, 1, 2])
        #expect(person.countStorage.observerCount == 1)
        withExtendedLifetime(holder) {}
    }
}
