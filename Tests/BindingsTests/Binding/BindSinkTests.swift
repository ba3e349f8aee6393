import Testing
@testable import Bindings

// `BindingSink`: custom sinks in `Reactive` extensions, `Void` and `Never` inputs,
// completion handlers, the weak owner.

@Suite("Bindings: BindingSink")
struct BindSinkTests {
    @Test func customSinkInAReactiveExtension() {
        let person = BindPerson()
        let label = BindLabel()
        label.reactive.shouting <~ person.reactive.firstName
        person.firstName = "grace"
        person.reactive.lastName ~> label.reactive.shouting
        #expect(label.textSets == ["ADA", "GRACE", "LOVELACE"])
    }

    @Test func voidSink() {
        let label = BindLabel()
        let taps = PassthroughSubject<Void, Never>()
        label.reactive.flash <~ taps
        #expect(label.flashes == 0)
        taps.send()
        taps.send(())
        #expect(label.flashes == 2)
        taps ~> label.reactive.flash
        taps.send()
        #expect(label.flashes == 4)
    }

    @Test func voidSinkFromAMappedPublisher() {
        let person = BindPerson()
        let label = BindLabel()
        label.reactive.flash <~ person.$firstName.map { _ in () }
        person.firstName = "x"
        #expect(label.flashes == 2)
    }

    @Test func neverSinkRunsOnCompletion() {
        let label = BindLabel()
        let done = PassthroughSubject<Never, Never>()
        label.reactive.finished <~ done
        #expect(label.events == [])
        done.send(completion: .finished)
        done.send(completion: .finished)
        #expect(label.events == [.finished])
    }

    @Test func neverSinkOnAnAlreadyFinishedPublisher() {
        let label = BindLabel()
        Empty<Never, Never>() ~> label.reactive.finished
        #expect(label.events == [.finished])
    }

    @Test func sinkWithACompletionHandlerSeesValuesThenTheCompletion() {
        let label = BindLabel()
        let source = PassthroughSubject<String, Never>()
        label.reactive.log <~ source
        source.send("a")
        source.send("b")
        source.send(completion: .finished)
        source.send("c")
        #expect(label.events == [.value("a"), .value("b"), .finished])
    }

    @Test func sinkWithACompletionHandlerOnAFinitePublisher() {
        let label = BindLabel()
        label.reactive.log <~ Just("only")
        #expect(label.events == [.value("only"), .finished])
    }

    @Test func cancelledSinkGetsNoCompletion() {
        let label = BindLabel()
        let source = PassthroughSubject<String, Never>()
        let binding = label.reactive.log <~ source
        source.send("a")
        binding.cancel()
        source.send(completion: .finished)
        #expect(label.events == [.value("a")])
    }

    @Test func sinkMadeDirectlyWithAnOwner() {
        let label = BindLabel()
        let sink = BindingSink<BindLabel, Int>(owner: label) { label, value in label.name = "\(value)" }
        #expect(sink.owner === label)
        #expect(sink.bindingSink.owner === label)
        let source = PassthroughSubject<Int, Never>()
        sink <~ source
        source.send(1)
        source.send(2)
        #expect(label.nameSets == ["1", "2"])
    }

    @Test func sinkHoldsItsOwnerWeakly() {
        weak var weakLabel: BindLabel?
        var sink: BindingSink<BindLabel, String>?
        do {
            let label = BindLabel()
            weakLabel = label
            sink = label.reactive.shouting
            #expect(sink?.owner === label)
        }
        #expect(weakLabel == nil)
        #expect(sink?.owner == nil)
    }

    @Test func keyPathTargetsWriteEachValue() {
        let label = BindLabel()
        let target: BindingSink<BindLabel, String> = label.reactive.name
        let source = PassthroughSubject<String, Never>()
        target <~ source
        source.send("a")
        #expect(label.nameSets == ["a"])
    }
}
