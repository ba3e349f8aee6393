import Testing
@testable import Bindings

// `<~` and `~>`: initial and later values, optional lifting, the returned cancellable,
// released owners, precedence and static access.

@Suite("Bindings: <~ and ~>")
struct BindOperatorTests {
    @Test func bindDeliversTheCurrentValueThenEachLaterOne() {
        let label = BindLabel()
        let source = CurrentValueSubject<String, Never>("a")
        label.reactive.name <~ source
        #expect(label.nameSets == ["a"])
        source.send("b")
        source.send("c")
        #expect(label.nameSets == ["a", "b", "c"])
    }

    @Test func leftToRightDeliversTheSameSequence() {
        let label = BindLabel()
        let source = CurrentValueSubject<String, Never>("a")
        source ~> label.reactive.name
        source.send("b")
        source.send("b")
        #expect(label.nameSets == ["a", "b", "b"])
    }

    @Test func passthroughSourceDeliversOnlyLaterValues() {
        let label = BindLabel()
        let source = PassthroughSubject<String, Never>()
        label.reactive.name <~ source
        #expect(label.nameSets == [])
        source.send("x")
        #expect(label.nameSets == ["x"])
    }

    @Test func observedModelSourcesDeliverTheirCurrentValueFirst() {
        let person = BindPerson()
        let label = BindLabel()
        label.reactive.text <~ person.reactive.fullName
        label.reactive.name <~ person.$firstName
        label.reactive.name <~ person.publisher(for: \.lastName)
        person.firstName = "Grace"
        person.lastName = "Hopper"
        #expect(label.textSets == ["Ada Lovelace", "Grace Lovelace", "Grace Hopper"])
        #expect(label.nameSets == ["Ada", "Lovelace", "Grace", "Hopper"])
    }

    @Test func nonOptionalValuesAreLiftedIntoAnOptionalTarget() {
        let label = BindLabel()
        let left = CurrentValueSubject<String, Never>("l")
        let right = PassthroughSubject<String, Never>()
        label.reactive.text <~ left
        right ~> label.reactive.text
        right.send("r")
        left.send("l2")
        #expect(label.textSets == ["l", "r", "l2"])
    }

    @Test func optionalSourcesKeepTheirNils() {
        let label = BindLabel(text: "start")
        let source = PassthroughSubject<String?, Never>()
        label.reactive.text <~ source
        source.send(nil)
        source.send("x")
        source.send(nil)
        #expect(label.textSets == [nil, "x", nil])
    }

    @Test func operatorsOfTheCoreCompose() {
        let label = BindLabel()
        let source = PassthroughSubject<Int, Never>()
        label.reactive.text <~ source.filter { $0 % 2 == 0 }.map { "#\($0)" }
        for value in 1...5 { source.send(value) }
        #expect(label.textSets == ["#2", "#4"])
    }

    @Test func cancellingTheReturnedCancellableEndsTheBinding() {
        let label = BindLabel()
        let source = PassthroughSubject<String, Never>()
        var cancels = 0
        let binding = label.reactive.name <~ source.handleEvents(receiveCancel: { cancels += 1 })
        source.send("1")
        binding.cancel()
        #expect(cancels == 1)
        source.send("2")
        binding.cancel()
        #expect(label.nameSets == ["1"])
        #expect(cancels == 1)
    }

    @Test func cancellingTheReturnedCancellableOfLeftToRightEndsTheBinding() {
        let label = BindLabel()
        let source = PassthroughSubject<String, Never>()
        let binding = source ~> label.reactive.text
        source.send("1")
        binding.cancel()
        source.send("2")
        #expect(label.textSets == ["1"])
    }

    @Test func droppingTheReturnedCancellableKeepsTheBinding() {
        let label = BindLabel()
        let source = PassthroughSubject<String, Never>()
        do {
            _ = label.reactive.name <~ source
            _ = source ~> label.reactive.text
        }
        source.send("kept")
        #expect(label.nameSets == ["kept"])
        #expect(label.textSets == ["kept"])
    }

    @Test func removingTheOwnersSubscriptionsEndsItsBindings() {
        let label = BindLabel()
        let source = PassthroughSubject<String, Never>()
        label.reactive.name <~ source
        source ~> label.reactive.text
        source.send("1")
        label.subscriptions.removeAll()
        source.send("2")
        #expect(label.nameSets == ["1"])
        #expect(label.textSets == ["1"])
    }

    @Test func bindingToAnOwnerThatIsGoneIsANoOp() {
        var target: BindingSink<BindLabel, String?>?
        do {
            let label = BindLabel()
            target = label.reactive.text
        }
        let sink = try! #require(target)
        #expect(sink.owner == nil)
        var subscriptions = 0
        let source = PassthroughSubject<String, Never>()
        let counted = source.handleEvents(receiveSubscription: { _ in subscriptions += 1 })
        let left = sink <~ counted
        let right = counted ~> sink
        source.send("x")
        left.cancel()
        right.cancel()
        #expect(subscriptions == 0)   // the source was never even subscribed to
    }

    @Test func nilCoalescingBindsTighterThanTheBindingOperator() {
        let label = BindLabel()
        let missing: CurrentValueSubject<String?, Never>? = nil
        let fallback = CurrentValueSubject<String?, Never>("fallback")
        label.reactive.text <~ missing ?? fallback            // `text <~ (missing ?? fallback)`
        fallback.send("later")
        #expect(label.textSets == ["fallback", "later"])
    }

    @Test(arguments: [false, true])
    func theTernaryOperatorBindsTighterThanTheBindingOperator(useFirst: Bool) {
        let label = BindLabel()
        let first = CurrentValueSubject<String?, Never>("first")
        let second = CurrentValueSubject<String?, Never>("second")
        label.reactive.text <~ useFirst ? first : second     // `text <~ (useFirst ? first : second)`
        #expect(label.textSets == [useFirst ? "first" : "second"])
    }

    @Test func theBindingOperatorBindsTighterThanAssignment() {
        let label = BindLabel()
        let source = CurrentValueSubject<String, Never>("a")
        let binding: AnyCancellable
        binding = label.reactive.name <~ source              // `binding = (name <~ source)`
        binding.cancel()
        source.send("b")
        #expect(label.nameSets == ["a"])
    }

    @Test func reactiveIsReachableOnTheType() {
        let type = BindLabel.reactive
        #expect(type == Reactive<BindLabel>.self)
        #expect(BindLabel.reactive.kind == "label")
        #expect(BindViewModel.reactive == Reactive<BindViewModel>.self)
    }

    // A failable publisher does not compile as a binding source. With
    // `enum BindTestError: Error { case boom }`, each of these lines is rejected with
    // "operator function '<~' (or '~>', or instance method 'bind(to:_:)') requires the
    // types 'BindTestError' and 'Never' be equivalent" (checked with swift 6.3.1):
    //
    //     label.reactive.text <~ Fail<String?, BindTestError>(error: .boom)
    //     Fail<String, BindTestError>(error: .boom) ~> label.reactive.name
    //     Fail<String, BindTestError>(error: .boom).bind(to: label) { $0.name = $1 }
    //
    // `replaceError`/`catch` are not part of the core; bind a `Never`-failure publisher.
}
