import BindingsTestSupport
import Testing
@testable import Bindings

// `<~` of a source that offers a fused sink (a subject; `map`, `filter`, `compactMap` of a
// property or a subject): the binding is one closure on the source's channel (see
// `FusedBinding.swift`), with the lifetime of every binding.

@Suite("Bindings: sources with a fused sink")
struct BindFusedSourceTests {
    @Test func subjectsAndChainsDeliverEachValueInOrder() {
        let label = BindLabel()
        let subject = PassthroughSubject<String, Never>()
        let numbers = CurrentValueSubject<Int, Never>(1)
        let person = BindPerson()
        label.reactive.text <~ subject                                       // String into String?
        label.reactive.name <~ numbers.filter { $0 % 2 == 1 }.map { "#\($0)" }
        label.reactive.shouting <~ person.reactive.firstName.map { $0 + "!" }
        subject.send("a")
        numbers.send(2)
        numbers.send(3)
        person.firstName = "Grace"
        subject.send("b")
        #expect(label.textSets == ["ADA!", "a", "GRACE!", "b"])
        #expect(label.nameSets == ["#1", "#3"])
    }

    @Test func theBindingEndsAtOnceWithItsOwner() {
        let subject = PassthroughSubject<String?, Never>()
        weak var weakToken: Canary?
        weak var weakLabel: BindLabel?
        var handle: AnyCancellable?
        do {
            let label = BindLabel()
            weakLabel = label
            let token = Canary()
            weakToken = token
            handle = label.reactive.holding(token) <~ subject.map { $0 }
            subject.send("a")
            #expect(label.textSets == ["a"])
        }
        #expect(weakLabel == nil)
        #expect(weakToken == nil)                  // the closure went with the owner...
        subject.send("b")                          // ...and nothing is left on the subject
        handle?.cancel()                           // a late cancel is harmless
    }

    @Test func droppingTheReturnedCancellableEndsNothing() {
        let label = BindLabel()
        let subject = PassthroughSubject<String, Never>()
        do { _ = label.reactive.text <~ subject }
        subject.send("a")
        #expect(label.textSets == ["a"])
    }

    @Test func cancellingEndsTheBindingAndReleasesItsClosureWhileTheOwnerLives() {
        let label = BindLabel()
        let subject = PassthroughSubject<String?, Never>()
        weak var weakToken: Canary?
        let handle: AnyCancellable = {
            let token = Canary()
            weakToken = token
            return label.reactive.holding(token) <~ subject
        }()
        subject.send("a")
        handle.cancel()
        #expect(weakToken == nil)
        subject.send("b")
        #expect(label.textSets == ["a"])
        handle.cancel()
    }

    @Test func aSetterThatCancelsItsOwnBindingGetsNothingMore() {
        let label = BindLabel()
        let subject = PassthroughSubject<String, Never>()
        var handle: AnyCancellable?
        handle = subject.bind(to: label) { label, text in
            label.name = text
            handle?.cancel()
        }
        subject.send("a")
        subject.send("b")
        #expect(label.nameSets == ["a"])
    }

    @Test func aSinkWithACompletionStillGetsIt() {
        // Not fused: the completion reaches the sink, after the values.
        let label = BindLabel()
        let subject = PassthroughSubject<String, Never>()
        label.reactive.log <~ subject
        subject.send("a")
        subject.send(completion: .finished)
        #expect(label.events == [.value("a"), .finished])
    }
}
