import Dispatch
import Testing
@testable import Bindings

// The code block of SPEC section 3, line by line, with its comments as expectations.

private final class Address: KeyValueObservable {
    @Observed var city = "London"
}

private final class Person: KeyValueObservable {
    @Observed var firstName = "Ada"
    @Observed var lastName = "Lovelace"
    @Observed var address = Address()
    var fullName: String { "\(firstName) \(lastName)" }
}

private final class Label: BindingOwner {
    var text: String?
    var texts: [String?] = []
    var subscriptions = Set<AnyCancellable>()   // on Linux an owner declares its storage
}

extension Reactive where Base: Label {                   // a custom sink
    fileprivate var shouting: BindingSink<Base, String> { BindingSink(owner: base) { $0.text = $1.uppercased() } }
}

@MainActor private final class StatusLine {
    var text = "" { didSet { setOnMainThread.append(MainThread.isCurrent) } }
    var setOnMainThread: [Bool] = []
    var subscriptions = Set<AnyCancellable>()
}

private final class ViewModel: KeyValueObservable, BindingOwner {
    @Observed var name = "n"
    var subscriptions = Set<AnyCancellable>()
}
extension StatusLine: @MainActor BindingOwner {}

@Suite("Bindings: SPEC section 3")
struct BindSpecSection3Tests {
    @Test func bindOperatorLiftsIntoOptional() {
        let person = Person()
        let label = Label()
        label.reactive.text <~ person.reactive.fullName         // String into String?: lifted
        #expect(label.text == "Ada Lovelace")
        person.lastName = "Byron"
        #expect(label.text == "Ada Byron")
        #expect(label.subscriptions.count == 1)
    }

    @Test func leftToRightIsTheSameBinding() {
        let person = Person()
        let label = Label()
        person.reactive.fullName ~> label.reactive.text         // the same binding, written left to right
        person.firstName = "Grace"
        #expect(label.text == "Grace Lovelace")
    }

    @Test func bindsPublishersAndSubjects() {
        let person = Person()
        let label = Label()
        label.reactive.text <~ person.publisher(for: \.firstName)
        #expect(label.text == "Ada")
        let subject = PassthroughSubject<String?, Never>()
        label.reactive.text <~ subject
        subject.send(nil)
        #expect(label.text == nil)
        subject.send("x")
        #expect(label.text == "x")
    }

    @Test func customSink() {
        let person = Person()
        let label = Label()
        label.reactive.shouting <~ person.reactive.firstName
        #expect(label.text == "ADA")
        person.firstName = "grace"
        #expect(label.text == "GRACE")
    }

    @Test func inlineBinding() {
        let person = Person()
        let label = Label()
        person.reactive.firstName.bind(to: label) { label, name in label.text = name }  // inline binding
        person.firstName = "Mary"
        #expect(label.text == "Mary")
    }

    @Test func listenerAPI() {
        let person = Person()
        let label = Label()
        person.$firstName.bind(label, skipInitialValue: false) { label, name in label.texts.append(name) }
        person.firstName = "Grace"
        person.$firstName.unbind(label)
        person.firstName = "Mary"
        #expect(label.texts == ["Ada", "Grace"])
    }

    @Test func observableValue() {
        let title = ObservableValue("Title")                     // a standalone observable value
        title.update("New Title")                                // title.value == "New Title"
        #expect(title.value == "New Title")
    }

    @Test func bindingEndsWhenOwnerDeinitialises() {
        let person = Person()
        weak var capturedWeak: Label?
        weak var ownerWeak: Label?
        do {
            let label = Label()
            ownerWeak = label
            let captured = Label()
            capturedWeak = captured
            person.reactive.firstName.bind(to: label) { label, name in
                label.text = name + (captured.text ?? "")
            }
            #expect(capturedWeak != nil)
        }
        // Released at once: no value was sent after the owner went away.
        #expect(ownerWeak == nil)
        #expect(capturedWeak == nil)
    }

    @Test func bindingToReleasedOwnerIsNoOp() {
        let person = Person()
        var sink: BindingSink<Label, String?>?
        do {
            let label = Label()
            sink = label.reactive.text
        }
        #expect(sink?.owner == nil)
        let c = sink! <~ person.reactive.fullName
        c.cancel()
        person.firstName = "x"
    }

    @MainActor @Test func mainActorOwnerRunsOnMainThread() async {
        let status = StatusLine()
        let subject = PassthroughSubject<String, Never>()
        status.reactive.text <~ subject
        subject.send("on main")
        #expect(status.text == "on main")              // synchronous on the main thread
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                subject.send("from background")        // hops to the main queue
                subject.send("second")
                DispatchQueue.main.async { done.resume() }
            }
        }
        #expect(status.text == "second")
        #expect(status.setOnMainThread == [true, true, true])
    }

    @Test func bothRolesWithoutAmbiguity() {
        let viewModel = ViewModel()
        let p = viewModel.reactive.name                        // not ambiguous: a publisher...
        var names: [String] = []
        let c = p.sink { names.append($0) }
        let source = PassthroughSubject<String, Never>()
        viewModel.reactive.name <~ source                      // ...and a target
        source.send("m")
        #expect(names == ["n", "m"])
        #expect(viewModel.name == "m")
        withExtendedLifetime(c) {}
    }

    @Test func nilCoalescingParsesInsideBinding() {
        let label = Label()
        let a = CurrentValueSubject<String?, Never>(nil)
        label.reactive.text <~ a.map { $0 ?? "fallback" }
        #expect(label.text == "fallback")
        let b: String? = nil
        label.reactive.text <~ Just(b ?? "b")                  // `<~` binds below `??`
        #expect(label.text == "b")
    }
}
