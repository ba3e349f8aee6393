import BindingsTestSupport
import Testing
@testable import Bindings

// Issue 13, item 3: `@Published` and `ObservableObject`, so that a Combine model compiles
// unchanged, with Combine's announce-before-the-change semantics.

/// A Combine model, as Combine code declares one.
private final class PortedModel: ObservableObject {
    @Published var name = "Ada"
    @Published private(set) var count: Int = 0

    func increment() { count += 1 }
}

private class PortedBase: ObservableObject {
    @Published var base = 1
}

private final class PortedDerived: PortedBase {
    @Published var derived = "x"
}

/// An object with its own `objectWillChange`.
private final class CustomAnnouncer: ObservableObject {
    let objectWillChange = PassthroughSubject<Void, Never>()
    var value = 0 {
        willSet { objectWillChange.send() }
    }
}

private final class NoPublishedProperties: ObservableObject {
    var plain = 0
}

@Suite("Porting: @Published and ObservableObject")
struct PublishedTests {
    @Test func theProjectionSendsTheCurrentValueThenEachNewOneBeforeItIsStored() {
        let model = PortedModel()
        var seen: [String] = []
        var readInside: [String] = []
        let c = model.$name.sink { value in
            seen.append(value)
            readInside.append(model.name)
        }
        model.name = "Grace"
        model.name = "Alan"
        #expect(seen == ["Ada", "Grace", "Alan"])
        // As in Combine: the property still reads the old value while its subscribers run.
        #expect(readInside == ["Ada", "Ada", "Grace"])
        #expect(model.name == "Alan")
        withExtendedLifetime(c) {}
    }

    @Test func objectWillChangeSendsBeforeEachSetOfAnyPublishedProperty() {
        let model = PortedModel()
        var announced: [String] = []
        let c = model.objectWillChange.sink { announced.append("\(model.name) \(model.count)") }
        model.name = "Grace"
        model.increment()
        model.increment()
        #expect(announced == ["Ada 0", "Grace 0", "Grace 1"])
        #expect(model.objectWillChange === model.objectWillChange)
        withExtendedLifetime(c) {}
    }

    @Test func aSubclassSharesOnePublisherWithItsSuperclassesProperties() {
        let model = PortedDerived()
        var count = 0
        let c = model.objectWillChange.sink { count += 1 }
        model.base = 2
        model.derived = "y"
        #expect(count == 2)
        withExtendedLifetime(c) {}
    }

    @Test func aCustomObjectWillChangeIsTheObjectsOwn() {
        let announcer = CustomAnnouncer()
        var count = 0
        let c = announcer.objectWillChange.sink { count += 1 }
        announcer.value = 1
        #expect(count == 1)
        withExtendedLifetime(c) {}
    }

    @Test func anObjectWithoutPublishedPropertiesGetsAPublisherThatNothingSends() {
        let object = NoPublishedProperties()
        var count = 0
        let c = object.objectWillChange.sink { count += 1 }
        object.plain = 3
        #expect(count == 0)
        withExtendedLifetime(c) {}
    }

    @Test func combineOperatorsOnTheProjectionAndAStandalonePublisher() {
        let model = PortedModel()
        let recorder = TestRecorder<String, Never>()
        model.$name.map { $0.uppercased() }.removeDuplicates().subscribe(recorder)
        model.name = "Ada"
        model.name = "Lin"
        #expect(recorder.values == ["ADA", "LIN"])
        var standalone: [Int] = []
        let c = Published<Int>.Publisher(5).sink { standalone.append($0) }
        #expect(standalone == [5])
        withExtendedLifetime(c) {}
    }
}
