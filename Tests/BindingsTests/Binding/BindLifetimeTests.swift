import BindingsTestSupport
import Testing
@testable import Bindings

// A binding ends at once when its owner is released: checked with a weak reference to a
// token only the binding's closure holds, and with the source's cancel, without sending
// another value.

@Suite("Bindings: lifetime")
struct BindLifetimeTests {
    @Test func bindingEndsAtOnceWhenTheOwnerIsReleased() {
        let source = PassthroughSubject<String, Never>()
        var cancels = 0
        let counted = source.handleEvents(receiveCancel: { cancels += 1 })
        weak var weakToken: Canary?
        weak var weakLabel: BindLabel?
        do {
            let label = BindLabel()
            weakLabel = label
            let token = Canary()
            weakToken = token
            label.reactive.holding(token) <~ counted
            source.send("a")
            #expect(label.textSets == ["a"])
        }
        #expect(weakLabel == nil)
        #expect(cancels == 1)
        #expect(weakToken == nil)
    }

    @Test func bindingEndsAtOnceEvenWhileItsCancellableIsHeld() {
        let source = PassthroughSubject<String, Never>()
        var cancels = 0
        let counted = source.handleEvents(receiveCancel: { cancels += 1 })
        weak var weakToken: Canary?
        var held: [AnyCancellable] = []
        do {
            let label = BindLabel()
            let token = Canary()
            weakToken = token
            held.append(label.reactive.holding(token) <~ counted)
            held.append(counted.map(Optional.some) ~> label.reactive.holding(token))
            held.append(counted.bind(to: label) { label, _ in withExtendedLifetime(token) {} })
        }
        #expect(cancels == 3)
        #expect(weakToken == nil)
        for binding in held { binding.cancel() }   // late cancels are harmless
        #expect(cancels == 3)
    }

    @Test func inlineBindingEndsAtOnceWhenTheTargetIsReleased() {
        let person = BindPerson()
        weak var weakToken: Canary?
        do {
            let label = BindLabel()
            let token = Canary()
            weakToken = token
            person.reactive.firstName.bind(to: label) { label, name in
                withExtendedLifetime(token) { label.name = name }
            }
            #expect(label.nameSets == ["Ada"])
        }
        #expect(weakToken == nil)
    }

    @Test func ownerReleasedInsideAnotherSubscribersCallback() {
        let source = PassthroughSubject<String, Never>()
        let seen = LockedLog<String?>()
        var holder: BindLabel? = BindLabel()
        weak var weakToken: Canary?
        let releaser = source.sink { value in
            if value == "release" { holder = nil }
        }
        do {
            let token = Canary()
            weakToken = token
            BindingSink<BindLabel, String>(owner: holder!) { _, value in
                withExtendedLifetime(token) { seen.append(value) }
            } <~ source
        }
        source.send("a")
        source.send("release")
        #expect(weakToken == nil)
        source.send("b")
        #expect(seen.items == ["a"])
        withExtendedLifetime(releaser) {}
    }

    @Test func ownerReleasedInsideItsOwnSetter() {
        let source = PassthroughSubject<String, Never>()
        var cancels = 0
        var holder: BindLabel? = BindLabel()
        weak var weakToken: Canary?
        do {
            let token = Canary()
            weakToken = token
            BindingSink<BindLabel, String>(owner: holder!) { label, value in
                withExtendedLifetime(token) { label.name = value }
                holder = nil
            } <~ source.handleEvents(receiveCancel: { cancels += 1 })
        }
        source.send("a")
        #expect(holder == nil)
        #expect(cancels == 1)
        #expect(weakToken == nil)
    }

    /// `cancel()` releases what the binding's closures capture at once, while the owner
    /// lives on, on every path: a subject's `<~`, `~>` and `bind(to:)` (the general
    /// subscriber), and a property's `bind(to:)` and `<~` (issue: the general path kept
    /// them until the owner went, so a cancel did not break a cycle through them).
    @Test func cancellingReleasesTheClosuresWhileTheOwnerLives() {
        let source = PassthroughSubject<String, Never>()
        let person = BindPerson()
        let label = BindLabel()
        weak var weakToken: Canary?
        var handles: [AnyCancellable] = []
        do {
            let token = Canary()
            weakToken = token
            handles.append(label.reactive.holding(token) <~ source)
            handles.append(source.map(Optional.some) ~> label.reactive.holding(token))
            handles.append(source.bind(to: label) { label, _ in withExtendedLifetime(token) { label.flashes += 1 } })
            handles.append(person.reactive.firstName.bind(to: label) { label, _ in withExtendedLifetime(token) {} })
            handles.append(label.reactive.holding(token) <~ person.reactive.firstName)
        }
        source.send("a")
        #expect(label.flashes == 1)
        #expect(label.subscriptions.count == 5)
        for handle in handles.dropLast() { handle.cancel() }
        #expect(weakToken != nil, "the last binding still holds it")
        handles.last!.cancel()
        #expect(weakToken == nil)
        source.send("b")
        #expect(label.flashes == 1, "nothing after cancel()")
        #expect(label.textSets == ["Ada", "a", "a"])
    }

    /// A cancel breaks a cycle through the closures: a view model that keeps its view,
    /// bound with a closure that captures the view model.
    @Test func cancellingBreaksACycleThroughTheClosure() {
        final class ViewModel {
            let names = PassthroughSubject<String, Never>()
            var view: BindLabel?
        }
        weak var weakView: BindLabel?
        weak var weakModel: ViewModel?
        do {
            let model = ViewModel()
            let view = BindLabel()
            model.view = view
            weakView = view
            weakModel = model
            let binding = model.names.bind(to: view) { view, name in view.name = name + "\(model.view === view)" }
            model.names.send("a")
            #expect(view.nameSets == ["atrue"])
            binding.cancel()
        }
        #expect(weakView == nil)
        #expect(weakModel == nil)
    }

    @Test func bindingsToFinitePublishersAreNotKept() {
        let label = BindLabel()
        label.reactive.text <~ Just("a")
        Just("b") ~> label.reactive.name
        label.reactive.log <~ Just("c")
        Just("d").bind(to: label) { $0.flashes += $1.count }
        #expect(label.textSets == ["a"])
        #expect(label.nameSets == ["b"])
        #expect(label.events == [.value("c"), .finished])
        #expect(label.flashes == 1)
        #expect(label.subscriptions.isEmpty)
    }

    @Test func bindingsThatFinishLaterStayUntilTheOwnerGoes() {
        let label = BindLabel()
        let source = PassthroughSubject<String, Never>()
        label.reactive.log <~ source
        #expect(label.subscriptions.count == 1)
        source.send(completion: .finished)
        #expect(label.events == [.finished])
    }

    @Test func bindingDoesNotKeepTheSourceModelAlive() {
        let label = BindLabel()
        weak var weakPerson: BindPerson?
        do {
            let person = BindPerson()
            weakPerson = person
            label.reactive.text <~ person.reactive.fullName
            label.reactive.log <~ person.$firstName
            person.firstName = "Grace"
        }
        #expect(weakPerson == nil)
        #expect(label.textSets == ["Ada Lovelace", "Grace Lovelace"])
        #expect(label.events == [.value("Ada"), .value("Grace"), .finished])
    }

    @Test func selfBindingDoesNotKeepTheOwnerAlive() {
        weak var weakModel: BindViewModel?
        do {
            let model = BindViewModel()
            weakModel = model
            model.reactive.plain <~ model.reactive.count
            model.reactive.name <~ model.reactive.count.map { "#\($0)" }
            model.count = 3
            #expect(model.plainSets == [0, 3])
            #expect(model.name == "#3")
        }
        #expect(weakModel == nil)
    }
}
