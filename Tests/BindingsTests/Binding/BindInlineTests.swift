import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// Inline bindings (`bind(to:)`), and where values are delivered: synchronously on the
// setting thread by default, on a scheduler when asked.

@Suite("Bindings: inline bind(to:) and delivery")
struct BindInlineTests {
    @Test func inlineBindingDeliversTheCurrentValueThenEachLaterOne() {
        let person = BindPerson()
        let label = BindLabel()
        person.reactive.firstName.bind(to: label) { label, name in label.text = name }
        person.firstName = "Grace"
        person.firstName = "Mary"
        #expect(label.textSets == ["Ada", "Grace", "Mary"])
        #expect(label.subscriptions.count == 1)
    }

    @Test func inlineBindingEndsWhenCancelled() {
        let source = PassthroughSubject<String, Never>()
        let label = BindLabel()
        let binding = source.bind(to: label) { $0.name = $1 }
        source.send("1")
        binding.cancel()
        source.send("2")
        #expect(label.nameSets == ["1"])
    }

    @Test func inlineBindingHoldsItsTargetWeakly() {
        let source = PassthroughSubject<String, Never>()
        weak var weakLabel: BindLabel?
        do {
            let label = BindLabel()
            weakLabel = label
            source.bind(to: label) { $0.name = $1 }
            source.send("1")
            #expect(label.nameSets == ["1"])
        }
        #expect(weakLabel == nil)
        source.send("2")
    }

    @Test func deliveryIsSynchronousOnTheSettingThread() {
        let person = BindPerson()
        let threads = LockedLog<pthread_t>()
        let seenBeforeSetReturned = LockedLog<Bool>()
        let label = BindLabel()
        person.reactive.firstName.bind(to: label) { label, name in
            label.name = name
            threads.append(pthread_self())
        }
        let box = UncheckedBox((person, label))
        runOnAnotherThread {
            threads.append(pthread_self())   // the setter
            let (person, label) = box.value
            person.firstName = "Grace"
            seenBeforeSetReturned.append(label.nameSets.last == "Grace")
        }
        #expect(label.nameSets == ["Ada", "Grace"])
        // The initial value on this thread, then the set on the setter's, synchronously.
        let items = threads.items
        #expect(items.count == 3)
        #expect(items.count == 3 && items[0] == pthread_self() && items[1] != items[0] && items[2] == items[1])
        #expect(seenBeforeSetReturned.items == [true])
    }

    @Test func immediateSchedulerDeliversSynchronously() {
        let source = PassthroughSubject<String, Never>()
        let label = BindLabel()
        source.bind(to: label, on: ImmediateScheduler.shared) { $0.name = $1 }
        source.bind(to: label.reactive.text, on: ImmediateScheduler.shared)
        source.send("a")
        #expect(label.nameSets == ["a"])
        #expect(label.textSets == ["a"])
        label.reactive.name <~ source.receive(on: ImmediateScheduler.shared)
        source.send("b")
        #expect(label.nameSets == ["a", "b", "b"])
    }

    @Test func dispatchQueueDeliversOnTheQueueInOrder() {
        let queue = DispatchQueue(label: "BindInlineTests.delivery")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let source = PassthroughSubject<Int, Never>()
        let label = BindLabel()
        let onQueue = LockedLog<Bool>()
        let values = LockedLog<Int>()
        source.bind(to: label, on: queue) { _, value in
            values.append(value)
            onQueue.append(DispatchQueue.getSpecific(key: key) == 1)
        }
        for value in 1...100 { source.send(value) }
        queue.sync {}
        #expect(values.items == Array(1...100))
        #expect(onQueue.items == Array(repeating: true, count: 100))
    }

    @Test func dispatchQueueDeliveryToATarget() {
        let queue = DispatchQueue(label: "BindInlineTests.target")
        let source = PassthroughSubject<String, Never>()
        let label = BindLabel()
        let gate = DispatchSemaphore(value: 0)
        let delivered = LockedLog<Int>()
        source.bind(to: label.reactive.name, on: queue)
        label.reactive.text <~ source.receive(on: queue)
        queue.async { gate.wait() }         // hold the queue: nothing may arrive before
        source.send("a")
        source.send("b")
        let box = UncheckedBox(label)
        queue.async { delivered.append(box.value.nameSets.count) }
        gate.signal()
        queue.sync {}
        #expect(delivered.items == [2])
        #expect(label.nameSets == ["a", "b"])
        #expect(label.textSets == ["a", "b"])
    }

    @Test func scheduledDeliveryLiftsIntoAnOptionalTarget() {
        let source = CurrentValueSubject<String, Never>("a")
        let label = BindLabel()
        source.bind(to: label.reactive.text, on: ImmediateScheduler.shared)
        #expect(label.textSets == ["a"])
    }

    @Test func scheduledDeliveryStopsAfterCancel() {
        let queue = DispatchQueue(label: "BindInlineTests.cancel")
        let source = PassthroughSubject<String, Never>()
        let label = BindLabel()
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }                 // hold the queue
        let binding = source.bind(to: label.reactive.name, on: queue)
        source.send("a")
        binding.cancel()
        gate.signal()
        queue.sync {}
        #expect(label.nameSets == [])
    }

    @Test func scheduledDeliveryStopsWhenTheOwnerIsReleased() {
        let queue = DispatchQueue(label: "BindInlineTests.release")
        let source = PassthroughSubject<String, Never>()
        let log = LockedLog<String>()
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        weak var weakLabel: BindLabel?
        do {
            let label = BindLabel()
            weakLabel = label
            source.bind(to: label, on: queue) { _, value in log.append(value) }
            source.send("a")
        }
        #expect(weakLabel == nil)
        gate.signal()
        queue.sync {}
        #expect(log.items == [])
    }
}
