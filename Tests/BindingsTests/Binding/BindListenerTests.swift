import BindingsTestSupport
import Foundation
import Testing
@testable import Bindings

// The listener API: `bind(_:skipInitialValue:handler:)` and `unbind(_:)` on `$property`
// and `ObservableValue`.

@Suite("Bindings: listeners")
struct BindListenerTests {
    @Test func handlersRunInBindOrderStartingWithTheCurrentValue() {
        let person = BindPerson()
        let first = BindLabel()
        let second = BindLabel()
        var log: [String] = []
        person.$firstName.bind(first) { _, name in log.append("first:\(name)") }
        person.$firstName.bind(second) { _, name in log.append("second:\(name)") }
        person.$firstName.bind(first) { _, name in log.append("first again:\(name)") }
        #expect(log == ["first:Ada", "second:Ada", "first again:Ada"])
        log = []
        person.firstName = "Grace"
        person.firstName = "Mary"
        #expect(log == [
            "first:Grace", "second:Grace", "first again:Grace",
            "first:Mary", "second:Mary", "first again:Mary",
        ])
    }

    @Test func handlerReceivesItsListener() {
        let person = BindPerson()
        let label = BindLabel()
        person.$firstName.bind(label) { label, name in label.text = name }
        person.firstName = "Grace"
        #expect(label.textSets == ["Ada", "Grace"])
    }

    @Test func skipInitialValueWaitsForTheNextSet() {
        let person = BindPerson()
        let label = BindLabel()
        person.$firstName.bind(label, skipInitialValue: true) { $0.name = $1 }
        #expect(label.nameSets == [])
        person.firstName = "Grace"
        person.firstName = "Grace"
        #expect(label.nameSets == ["Grace", "Grace"])
    }

    @Test func unbindRemovesEveryHandlerOfThatListenerOnly() {
        let person = BindPerson()
        let first = BindLabel()
        let second = BindLabel()
        var log: [String] = []
        person.$firstName.bind(first, skipInitialValue: true) { _, name in log.append("first:\(name)") }
        person.$firstName.bind(second, skipInitialValue: true) { _, name in log.append("second:\(name)") }
        person.$firstName.bind(first, skipInitialValue: true) { _, name in log.append("first again:\(name)") }
        person.firstName = "Grace"
        person.$firstName.unbind(first)
        person.firstName = "Mary"
        person.$firstName.unbind(first)            // again: nothing left to remove
        person.$firstName.unbind(BindLabel())      // never bound: a no-op
        person.firstName = "Ada"
        #expect(log == ["first:Grace", "second:Grace", "first again:Grace", "second:Mary", "second:Ada"])
        #expect(person.$firstName.listenerChannel.observerCount == 1)
    }

    @Test func aListenerCanBindAgainAfterUnbind() {
        let person = BindPerson()
        let label = BindLabel()
        person.$firstName.bind(label) { $0.name = $1 }
        person.$firstName.unbind(label)
        person.firstName = "Grace"
        person.$firstName.bind(label) { $0.name = $1 }
        person.firstName = "Mary"
        #expect(label.nameSets == ["Ada", "Grace", "Mary"])
    }

    @Test func listenerIsHeldWeaklyAndDroppedOnceReleased() {
        let person = BindPerson()
        let survivor = BindLabel()
        var log: [String] = []
        weak var weakListener: BindLabel?
        weak var weakToken: Canary?
        do {
            let listener = BindLabel()
            weakListener = listener
            let token = Canary()
            weakToken = token
            person.$firstName.bind(listener) { _, name in
                withExtendedLifetime(token) { log.append("released:\(name)") }
            }
        }
        person.$firstName.bind(survivor) { _, name in log.append("survivor:\(name)") }
        #expect(weakListener == nil)
        // The listener is a BindingOwner: its storage ended the binding when it went.
        #expect(weakToken == nil)
        #expect(person.$firstName.listenerChannel.observerCount == 1)
        person.firstName = "Grace"
        #expect(log == ["released:Ada", "survivor:Ada", "survivor:Grace"])
    }

    @Test func unbindInsideAHandlerStopsTheOtherListenerAtOnce() {
        let person = BindPerson()
        let first = BindLabel()
        let second = BindLabel()
        var log: [String] = []
        person.$firstName.bind(first, skipInitialValue: true) { _, name in
            log.append("first:\(name)")
            person.$firstName.unbind(second)
        }
        person.$firstName.bind(second, skipInitialValue: true) { _, name in log.append("second:\(name)") }
        person.firstName = "Grace"
        person.firstName = "Mary"
        #expect(log == ["first:Grace", "first:Mary"])
    }

    @Test func bindInsideAHandlerStartsWithTheCurrentValue() {
        let person = BindPerson()
        let first = BindLabel()
        let late = BindLabel()
        var log: [String] = []
        person.$firstName.bind(first, skipInitialValue: true) { _, name in
            log.append("first:\(name)")
            if name == "Grace" {
                person.$firstName.bind(late) { _, name in log.append("late:\(name)") }
            }
        }
        person.firstName = "Grace"
        person.firstName = "Mary"
        #expect(log == ["first:Grace", "late:Grace", "first:Mary", "late:Mary"])
    }

    @Test func listenerEndsWithTheModel() {
        let label = BindLabel()
        weak var weakPerson: BindPerson?
        do {
            let person = BindPerson()
            weakPerson = person
            person.$firstName.bind(label) { $0.name = $1 }
        }
        #expect(weakPerson == nil)
        #expect(label.nameSets == ["Ada"])
    }

    @Test func observableValueBindAndUnbind() {
        let title = ObservableValue("Title")
        let label = BindLabel()
        let other = BindLabel()
        title.bind(label) { $0.text = $1 }
        title.bind(other, skipInitialValue: true) { $0.name = $1 }
        title.update("New Title")
        #expect(title.value == "New Title")
        title.unbind(label)
        title.value = "Third"
        #expect(label.textSets == ["Title", "New Title"])
        #expect(other.nameSets == ["New Title", "Third"])
    }

    @Test func observableValueHandlersRunOnTheUpdatingThread() {
        let title = ObservableValue(0)
        let label = BindLabel()
        let threads = LockedLog<pthread_t>()
        let values = LockedLog<Int>()
        title.bind(label, skipInitialValue: true) { _, value in
            values.append(value)
            threads.append(pthread_self())
        }
        let box = UncheckedBox(title)
        runOnAnotherThread {
            threads.append(pthread_self())   // the updater
            box.value.update(1)
            box.value.update(2)
        }
        #expect(values.items == [1, 2])
        let items = threads.items
        #expect(items.count == 3)
        #expect(items.count == 3 && items[0] != pthread_self() && items[1] == items[0] && items[2] == items[0])
        withExtendedLifetime(label) {}
    }
}
