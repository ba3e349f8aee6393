import Testing
@testable import Bindings

// `base.reactive.property` on a base that is a model, an owner, or both.

@Suite("Bindings: reactive properties")
struct BindReactivePropertyTests {
    @Test func onABaseThatIsBothTheSameExpressionIsAPublisherAndATarget() {
        let viewModel = BindViewModel()
        let p = viewModel.reactive.name             // not ambiguous
        var names: [String] = []
        let observer = p.sink { names.append($0) }
        let source = PassthroughSubject<String, Never>()
        p <~ source
        source.send("m")
        viewModel.name = "direct"
        #expect(names == ["n", "m", "direct"])
        #expect(viewModel.name == "direct")
        withExtendedLifetime(observer) {}
    }

    @Test func reactivePropertyHasItsOwnType() {
        let viewModel = BindViewModel()
        let p = viewModel.reactive.name
        #expect(type(of: p) == ReactiveProperty<BindViewModel, String>.self)
        #expect(p.bindingSink.owner === viewModel)
    }

    @Test func modelToModelBinding() {
        let source = BindViewModel(name: "s")
        let target = BindViewModel(name: "t")
        target.reactive.name <~ source.reactive.name
        source.reactive.count ~> target.reactive.count
        source.name = "s2"
        source.count = 5
        #expect(target.name == "s2")
        #expect(target.count == 5)
    }

    @Test func readOnlyKeyPathsOfABaseThatIsBothArePublishers() {
        let viewModel = BindViewModel()
        let label = BindLabel()
        label.reactive.text <~ viewModel.reactive.shoutedName
        viewModel.name = "m"
        #expect(label.textSets == ["N", "M"])
    }

    @Test func unobservedWritablePropertiesOfABaseThatIsBothAreTargets() {
        let viewModel = BindViewModel()
        let source = PassthroughSubject<Int, Never>()
        viewModel.reactive.plain <~ source
        source.send(1)
        source.send(2)
        #expect(viewModel.plainSets == [1, 2])
    }

    @Test func typeContextPicksTheSinkOrThePublisher() {
        let viewModel = BindViewModel()
        let sink: BindingSink<BindViewModel, String> = viewModel.reactive.name
        let publisher: KeyValueObservingPublisher<BindViewModel, String> = viewModel.reactive.name
        var names: [String] = []
        let observer = publisher.sink { names.append($0) }
        sink <~ Just("j")
        #expect(names == ["n", "j"])
        withExtendedLifetime(observer) {}
    }

    @Test func modelOnlyBaseGivesPublishersOfAnyKeyPath() {
        let person = BindPerson()
        var names: [String] = []
        let observer = person.reactive.fullName.sink { names.append($0) }
        person.lastName = "Byron"
        #expect(names == ["Ada Lovelace", "Ada Byron"])
        withExtendedLifetime(observer) {}
    }
}
