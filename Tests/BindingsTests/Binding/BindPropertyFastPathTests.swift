import BindingsTestSupport
import Testing
@testable import Bindings

// A binding from a property publisher (`$x`, `model.reactive.x`, `publisher(for:)`, an
// `ObservableValue`) registers one observer straight on the property's channel (see
// Sources/Bindings/Binding/PropertyBinding.swift). It behaves as every binding does:
// exact values, lifetimes of the owner's and the maker's handles, and what it releases.

/// A model to bind from.
final class BindFastModel: KeyValueObservable {
    @Observed var count = 0
    @Observed var name = "Ada"
    /// The storage, to look at the channel (the synthesized `_count` is private here).
    var countStorage: Observed<Int> { _count }
}

/// An owner to bind into, logging what it is given.
final class BindFastOwner: BindingOwner {
    var number = 0 { didSet { numbers.append(number) } }
    var numbers: [Int] = []
    var text: String? { didSet { texts.append(text) } }
    var texts: [String?] = []
    var subscriptions = Set<AnyCancellable>()
}

extension Reactive where Base: BindFastOwner {
    /// A custom sink whose closure holds `canary`, to see when the binding lets go of it.
    func number(holding canary: Canary) -> BindingSink<Base, Int> {
        BindingSink(owner: base) { owner, value in
            canary.touch()
            owner.number = value
        }
    }
}

@Suite("Bindings: from a property, on its channel")
struct BindPropertyFastPathTests {
    @Test func valuesArriveInOrderFromEveryKindOfPropertySource() {
        let model = BindFastModel()
        let value = ObservableValue(10)
        let owner = BindFastOwner()
        owner.reactive.number <~ model.reactive.count
        model.count = 1
        owner.reactive.number <~ model.$count
        model.count = 2
        model.publisher(for: \.count, options: [.new]) ~> owner.reactive.number
        model.count = 3
        owner.reactive.number <~ value
        value.update(11)
        // Each binding sets the property: the first from 0, the second from 1, the
        // third (no initial value) from 3.
        #expect(owner.numbers == [0, 1, 1, 2, 2, 3, 3, 3, 10, 11])
        #expect(owner.subscriptions.count == 4)
    }

    /// The values alone would not tell the paths apart: what the handle cancels does.
    @Test func propertySourcesTakeTheChannelAndOtherSourcesASubscriber() {
        let model = BindFastModel()
        let value = ObservableValue(10)
        let owner = BindFastOwner()
        let onChannel = [
            owner.reactive.number <~ model.reactive.count,
            owner.reactive.number <~ model.$count,
            model.publisher(for: \.count) ~> owner.reactive.number,
            owner.reactive.number <~ value,
        ]
        #expect(onChannel.map { $0.targetForTesting is BindingObserver<Int> } == [true, true, true, true])
        let lifted = owner.reactive.text <~ model.reactive.name
        #expect(lifted.targetForTesting is BindingObserver<String>)
        let mapped = owner.reactive.number <~ model.$count.map { $0 + 1 }
        #expect(mapped.targetForTesting != nil)
        #expect(!(mapped.targetForTesting is BindingObserver<Int>))
        #expect(model.countStorage.observerCount == 4)   // the ObservableValue has its own
    }

    @Test func aValueLiftedIntoAnOptionalTarget() {
        let model = BindFastModel()
        let owner = BindFastOwner()
        owner.reactive.text <~ model.reactive.name
        model.$name ~> owner.reactive.text
        model.name = "Grace"
        #expect(owner.texts == ["Ada", "Ada", "Grace", "Grace"])
    }

    @Test func droppingTheMakersHandleEndsNothing() {
        let model = BindFastModel()
        let owner = BindFastOwner()
        do { _ = owner.reactive.number <~ model.reactive.count }
        model.count = 1
        #expect(owner.numbers == [0, 1])
        #expect(model.countStorage.observerCount == 1)
    }

    @Test func cancellingTheMakersHandleEndsTheBindingAndReleasesItsClosures() {
        let model = BindFastModel()
        let owner = BindFastOwner()
        weak var weakCanary: Canary?
        var handle: AnyCancellable?
        do {
            let canary = Canary()
            weakCanary = canary
            handle = owner.reactive.number(holding: canary) <~ model.reactive.count
        }
        model.count = 1
        handle?.cancel()
        model.count = 2
        #expect(owner.numbers == [0, 1])
        #expect(weakCanary == nil, "released at the cancel, while the owner lives")
        #expect(model.countStorage.observerCount == 0)
        #expect(owner.subscriptions.count == 1, "the owner's handle stays, inert")
        owner.subscriptions.removeAll()   // harmless
        withExtendedLifetime(handle) {}
    }

    @Test func theOwnersDeinitEndsTheBindingAtOnceWhileTheMakersHandleIsHeld() {
        let model = BindFastModel()
        weak var weakOwner: BindFastOwner?
        weak var weakCanary: Canary?
        var handle: AnyCancellable?
        do {
            let owner = BindFastOwner()
            weakOwner = owner
            let canary = Canary()
            weakCanary = canary
            handle = owner.reactive.number(holding: canary) <~ model.reactive.count
            model.count = 1
            #expect(owner.numbers == [0, 1])
        }
        #expect(weakOwner == nil)
        #expect(weakCanary == nil, "released with the owner, though the maker's handle is held")
        #expect(model.countStorage.observerCount == 0)
        handle?.cancel()   // late: harmless
        model.count = 2
    }

    @Test func theModelsDeinitReleasesTheClosuresAndCompletesTheSink() {
        var model: BindFastModel? = BindFastModel()
        let owner = BindFastOwner()
        let finished = LockedLog<String>()
        weak var weakCanary: Canary?
        var handle: AnyCancellable?
        do {
            let canary = Canary()
            weakCanary = canary
            let sink = BindingSink<BindFastOwner, Int>(
                owner: owner,
                receiveValue: { owner, value in canary.touch(); owner.number = value },
                receiveCompletion: { _ in finished.append("finished") })
            handle = sink <~ model!.reactive.count
        }
        model!.count = 1
        model = nil
        #expect(owner.numbers == [0, 1])
        #expect(finished.items == ["finished"])
        #expect(weakCanary == nil, "released with the model, though both handles are held")
        withExtendedLifetime(handle) {}
    }

    @Test func bindingToAnOwnerThatIsGoneDoesNothing() {
        let model = BindFastModel()
        weak var weakOwner: BindFastOwner?
        let sink: BindingSink<BindFastOwner, Int> = {
            let owner = BindFastOwner()
            weakOwner = owner
            return owner.reactive.number
        }()
        #expect(weakOwner == nil)
        let handle = sink <~ model.reactive.count
        model.count = 1
        handle.cancel()
        #expect(model.countStorage.observerCount == 0)
    }

    @Test func ownersReleasedOnOtherThreadsWhileTheModelIsSet() {
        let model = BindFastModel()
        let owners = LockedLog<BindFastOwner>()
        for _ in 0..<200 {
            let owner = BindFastOwner()
            owner.reactive.number <~ model.reactive.count
            owners.append(owner)
        }
        let box = UncheckedBox(model)
        runConcurrently([
            { for value in 1...300 { box.value.count = value } },
            { while owners.withLock({ $0.popLast() }) != nil {} },
        ])
        #expect(owners.count == 0)
        #expect(model.countStorage.observerCount == 0)
    }
}
