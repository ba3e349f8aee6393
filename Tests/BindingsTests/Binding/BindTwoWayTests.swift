import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// Two-way bindings (issue #14, item 3): `left <~> right` and
// `left.bind(twoWay: right, forward:, backward:)`. The right side first takes the left's
// value; each change of either side is then written to the other exactly once, with no
// echo; the binding lives in the right side's `subscriptions` and ends when either side
// deinitialises. Observers registered with `[.new]` on both sides count every write.

/// The spec's field: a model and an owner, whose `text` is optional.
final class TwoWayField: KeyValueObservable, BindingOwner {
    @Observed var text: String? = ""
    var subscriptions = Set<AnyCancellable>()
}

/// A field whose text is kept to four characters by its `didSet`.
final class TwoWayShortField: KeyValueObservable, BindingOwner {
    @Observed var text: String? = "" {
        didSet { if let text, text.count > 4 { self.text = String(text.prefix(4)) } }
    }
    var subscriptions = Set<AnyCancellable>()
}

/// The spec's person: a model that is not an owner.
final class TwoWayPerson: KeyValueObservable {
    @Observed var firstName = "Grace"
    @Observed var age = 36
    @Observed var address = TwoWayAddress("London")
    var fullName: String { "\(firstName) (\(age))" }
}

final class TwoWayAddress: KeyValueObservable {
    @Observed var city: String
    init(_ city: String) { self.city = city }
}

/// A main-actor field: its conformance to `BindingOwner` is isolated to the main actor.
@MainActor final class TwoWayMainField: KeyValueObservable {
    @Observed var text: String? = ""
    var subscriptions = Set<AnyCancellable>()
}

extension TwoWayMainField: @MainActor BindingOwner {}

/// A main-actor view model: a model and a main-actor owner, for a left side that must only
/// be written on the main thread.
@MainActor final class TwoWayMainViewModel: KeyValueObservable {
    @Observed var name = "m"
    var subscriptions = Set<AnyCancellable>()
}

extension TwoWayMainViewModel: @MainActor BindingOwner {}

/// A recorder of every set of `keyPath` on `model` from now on: `[.new]`, so one value
/// per set, on the thread that set it.
func recordSets<Model: KeyValueObservable, Value>(
    _ model: Model, _ keyPath: KeyPath<Model, Value>
) -> TestRecorder<Value, Never> {
    let recorder = TestRecorder<Value, Never>()
    model.publisher(for: keyPath, options: [.new]).subscribe(recorder)
    return recorder
}

@Suite("Bindings: two-way bindings")
struct BindTwoWayTests {
    // MARK: The spec's lines

    @Test func specExample() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        let personSets = recordSets(person, \.firstName)
        person.reactive.firstName.bind(twoWay: field.reactive.text, forward: { $0 }, backward: { $0 })
        #expect(field.text == "Grace")
        let fieldSets = recordSets(field, \.text)
        field.text = "Ada"
        #expect(person.firstName == "Ada")
        #expect(personSets.values == ["Ada"])           // once, and no echo
        #expect(fieldSets.values == ["Ada"])            // not written back
    }

    @Test func issueExampleConvertsAndANilFromBackwardLeavesTheLeftAsItIs() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        let ages = recordSets(person, \.age)
        let texts = recordSets(field, \.text)
        person.reactive.age.bind(twoWay: field.reactive.text, forward: { String($0) }, backward: { $0.flatMap { Int($0) } })
        #expect(field.text == "36")
        field.text = "37"
        #expect(person.age == 37)
        field.text = "x"
        field.text = nil
        #expect(person.age == 37)
        person.age = 40
        #expect(field.text == "40")
        #expect(ages.values == [37, 40])
        #expect(texts.values == ["36", "37", "x", nil, "40"])
    }

    // MARK: Exactly once, no echo

    @Test func theRightTakesTheLeftsValueOnceAndTheLeftIsNotWritten() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        let names = recordSets(person, \.firstName)
        let texts = recordSets(field, \.text)
        person.reactive.firstName <~> field.reactive.text
        #expect(texts.values == ["Grace"])
        #expect(names.values == [])
    }

    @Test func eachChangeOfTheLeftIsWrittenToTheRightOnce() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        person.reactive.firstName <~> field.reactive.text
        let names = recordSets(person, \.firstName)
        let texts = recordSets(field, \.text)
        for name in ["a", "b", "b", "c"] { person.firstName = name }
        #expect(names.values == ["a", "b", "b", "c"])    // one per set: no echo
        #expect(texts.values == ["a", "b", "b", "c"])
    }

    @Test func eachChangeOfTheRightIsWrittenToTheLeftOnce() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        person.reactive.firstName <~> field.reactive.text
        let names = recordSets(person, \.firstName)
        let texts = recordSets(field, \.text)
        for text in ["a", "b", "b", "c"] { field.text = text }
        #expect(texts.values == ["a", "b", "b", "c"])    // one per set: no echo
        #expect(names.values == ["a", "b", "b", "c"])
    }

    @Test func changesOfBothSidesInterleaved() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        person.reactive.firstName <~> field.reactive.text
        let names = recordSets(person, \.firstName)
        let texts = recordSets(field, \.text)
        person.firstName = "l1"
        field.text = "r1"
        field.text = "r2"
        person.firstName = "l2"
        #expect(names.values == ["l1", "r1", "r2", "l2"])
        #expect(texts.values == ["l1", "r1", "r2", "l2"])
    }

    @Test func liftedOperatorLeavesTheLeftAsItIsOnNil() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        person.reactive.firstName <~> field.reactive.text       // String and String?
        let names = recordSets(person, \.firstName)
        field.text = nil
        #expect(person.firstName == "Grace")
        #expect(names.values == [])
        field.text = "Ada"
        #expect(names.values == ["Ada"])
    }

    @Test func sameTypeOperatorOnAModelThatIsNotAnOwner() {
        let person = TwoWayPerson()
        let viewModel = BindViewModel(name: "v")
        person.reactive.firstName <~> viewModel.reactive.name
        #expect(viewModel.name == "Grace")
        viewModel.name = "Ada"
        #expect(person.firstName == "Ada")
        person.firstName = "Joan"
        #expect(viewModel.name == "Joan")
    }

    @Test func leftSideThatIsAlsoAnOwner() {
        let left = BindViewModel(name: "l")
        let right = BindViewModel(name: "r")
        left.reactive.name <~> right.reactive.name
        #expect(right.name == "l")
        let leftSets = recordSets(left, \.name)
        let rightSets = recordSets(right, \.name)
        right.name = "r1"
        left.name = "l1"
        #expect(leftSets.values == ["r1", "l1"])
        #expect(rightSets.values == ["r1", "l1"])
        #expect(left.subscriptions.isEmpty)                     // stored in the right side only
        #expect(right.subscriptions.count == 1)
    }

    @Test func leftSideThatIsAlsoAnOwnerConverts() {
        let viewModel = BindViewModel()
        let field = TwoWayField()
        viewModel.reactive.count.bind(twoWay: field.reactive.text, forward: { String($0) }, backward: { $0.flatMap { Int($0) } })
        #expect(field.text == "0")
        field.text = "7"
        field.text = "seven"
        #expect(viewModel.count == 7)
        viewModel.reactive.name <~> field.reactive.text          // the lifted operator, on an owner
        #expect(field.text == "n")
    }

    @Test func keyPathThroughAnObservedObject() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        person.reactive.address.city <~> field.reactive.text
        #expect(field.text == "London")
        field.text = "Paris"
        #expect(person.address.city == "Paris")
        person.address = TwoWayAddress("Rome")                   // the chain follows it
        #expect(field.text == "Rome")
        field.text = "Oslo"
        #expect(person.address.city == "Oslo")
    }

    @Test func reactiveMembersKeepTheirTypesElsewhere() {
        let person = TwoWayPerson()
        let viewModel = BindViewModel()
        let names = person.reactive.firstName                    // not ambiguous: still the publisher
        #expect(type(of: names) == KeyValueObservingPublisher<TwoWayPerson, String>.self)
        #expect(type(of: viewModel.reactive.name) == ReactiveProperty<BindViewModel, String>.self)
        let writable: WritableModelProperty<TwoWayPerson, String> = person.reactive.firstName
        #expect(writable.model === person)
        #expect(writable.keyPath == \TwoWayPerson.firstName)
        var seen: [String] = []
        let c = writable.publisher.sink { seen.append($0) }
        person.firstName = "Ada"
        #expect(seen == ["Grace", "Ada"])
        withExtendedLifetime(c) {}
    }

    // MARK: Re-entrancy

    @Test(arguments: [false, true])
    func rightObserverThatSetsTheRightAgain(observerFirst: Bool) {
        let person = TwoWayPerson()
        let field = TwoWayField()
        var token: KeyValueObservation?
        let observe = {
            token = field.observe(\.text, options: [.new]) { field, change in
                if let text = change.newValue!, !text.hasSuffix("!") { field.text = text + "!" }
            }
        }
        if observerFirst { observe() }
        person.reactive.firstName <~> field.reactive.text
        if !observerFirst { observe() }
        let names = recordSets(person, \.firstName)
        field.text = "Ada"
        #expect(field.text == "Ada!")
        #expect(person.firstName == "Ada!")
        #expect(names.values.last == person.firstName)
        person.firstName = "Joan"                                // the binding's write is amended too
        #expect(field.text == "Joan!")
        #expect(person.firstName == "Joan!")
        #expect(names.values.last == "Joan!")
        withExtendedLifetime(token) {}
    }

    @Test(arguments: [false, true])
    func leftObserverThatSetsTheLeftAgain(observerFirst: Bool) {
        let person = TwoWayPerson()
        let field = TwoWayField()
        var token: KeyValueObservation?
        let observe = {
            token = person.observe(\.firstName, options: [.new]) { person, change in
                let name = change.newValue!
                if name != name.uppercased() { person.firstName = name.uppercased() }
            }
        }
        if observerFirst { observe() }
        person.reactive.firstName <~> field.reactive.text
        if !observerFirst { observe() }
        let texts = recordSets(field, \.text)
        field.text = "ada"
        #expect(person.firstName == "ADA")
        #expect(field.text == "ADA")
        #expect(texts.values.last == "ADA")
        person.firstName = "joan"
        #expect(field.text == "JOAN")
        #expect(texts.values.last == "JOAN")
        withExtendedLifetime(token) {}
    }

    @Test(arguments: [false, true])
    func rightObserverThatSetsTheRightAgainInABatch(observerFirst: Bool) {
        let person = TwoWayPerson()
        let field = TwoWayField()
        var token: KeyValueObservation?
        let observe = {
            token = field.observe(\.text, options: [.new]) { field, change in
                if let text = change.newValue!, !text.hasSuffix("!") { field.text = text + "!" }
            }
        }
        if observerFirst { observe() }
        person.reactive.firstName <~> field.reactive.text
        if !observerFirst { observe() }
        batchChanges { person.firstName = "Joan" }
        #expect(field.text == "Joan!")
        #expect(person.firstName == "Joan!")
        batchChanges { field.text = "Ada" }
        #expect(field.text == "Ada!")
        #expect(person.firstName == "Ada!")
        batchChanges {
            person.firstName = "l"
            field.text = "r"
        }
        #expect(person.firstName == field.text)
        field.text = "after!"
        #expect(person.firstName == "after!")
        withExtendedLifetime(token) {}
    }

    @Test func anObserverOfOneSideThatSetsTheOtherSide() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        person.reactive.firstName <~> field.reactive.text
        let token = person.observe(\.firstName, options: [.new]) { _, change in
            if change.newValue == "ping" { field.text = "pong" }
        }
        person.firstName = "ping"
        #expect(field.text == "pong")
        #expect(person.firstName == "pong")
        field.text = "ping"
        #expect(field.text == "pong")
        #expect(person.firstName == "pong")
        withExtendedLifetime(token) {}
    }

    /// A batch that sets both sides: the side set last wins; each side's observers see
    /// its changes in order and end with its final value.
    @Test func inABatchThatSetsBothSidesTheLastChangeWins() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        person.reactive.firstName <~> field.reactive.text
        var names: [KeyValueObservedChange<String>] = []
        var texts: [String?] = []
        let a = person.observe(\.firstName, options: [.old, .new]) { _, change in names.append(change) }
        let b = field.observe(\.text, options: [.new]) { _, change in texts.append(change.newValue!) }
        batchChanges {
            person.firstName = "l"
            field.text = "r"
        }
        #expect(person.firstName == "r")
        #expect(field.text == "r")
        #expect(names == [.set(new: "l", old: "Grace"), .set(new: "r", old: "l")])
        #expect(texts == ["r"])
        withExtendedLifetime((a, b)) {}
    }

    @Test func changesOfBothSidesInOneBatchLeaveThemEqual() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        person.reactive.firstName <~> field.reactive.text
        // The side changed last is written to the other when the batch ends, as without
        // the batch (issue: the side changed first won).
        batchChanges {
            person.firstName = "l"
            field.text = "r"
        }
        #expect(person.firstName == "r")
        #expect(field.text == "r")
        batchChanges {
            field.text = "r2"
            person.firstName = "l2"
        }
        #expect(person.firstName == "l2")
        #expect(field.text == "l2")
        batchChanges { person.firstName = "l3" }
        #expect(field.text == "l3")
        batchChanges {
            person.firstName = "l4"
            person.firstName = "l5"
            field.text = "r4"
            field.text = "r5"
        }
        #expect(person.firstName == field.text)
        // No write is left unmatched: the next change of either side goes through.
        let names = recordSets(person, \.firstName)
        let texts = recordSets(field, \.text)
        field.text = "after"
        #expect(person.firstName == "after")
        person.firstName = "after2"
        #expect(field.text == "after2")
        #expect(names.values == ["after", "after2"])
        #expect(texts.values == ["after", "after2"])
    }

    @Test func aFlushThatWritesTheRightTwiceLeavesNoWriteUnmatched() {
        // A normalising observer of the left sets it again in the flush: the binding
        // writes the right twice, and the batch makes one notification of both writes.
        // The user's next change of the right still reaches the left.
        let person = TwoWayPerson()
        let field = TwoWayField()
        let normalise = person.observe(\.age, options: [.new]) { person, change in
            if change.newValue! < 0 { person.age = 0 }
        }
        person.reactive.age.bind(twoWay: field.reactive.text, forward: { String($0) }, backward: { $0.flatMap { Int($0) } })
        let ages = recordSets(person, \.age)
        let texts = recordSets(field, \.text)
        batchChanges { person.age = -5 }
        #expect(person.age == 0)
        #expect(field.text == "0")
        field.text = "7"
        #expect(person.age == 7)
        person.age = 8
        #expect(field.text == "8")
        #expect(ages.values == [-5, 0, 7, 8])
        #expect(texts.values == ["0", "7", "8"])
        withExtendedLifetime(normalise) {}
    }

    @Test func aFlushThatWritesTheLeftTwiceLeavesNoWriteUnmatched() {
        // The mirror case: a normalising observer of the right, so the binding writes the
        // left twice in one flush.
        let person = TwoWayPerson()
        let field = TwoWayField()
        let normalise = field.observe(\.text, options: [.new]) { field, change in
            if let text = change.newValue!, text != text.uppercased() { field.text = text.uppercased() }
        }
        person.reactive.firstName <~> field.reactive.text
        let names = recordSets(person, \.firstName)
        batchChanges { field.text = "ada" }
        #expect(field.text == "ADA")
        #expect(person.firstName == "ADA")
        person.firstName = "GRACE"
        #expect(field.text == "GRACE")
        field.text = "EMMY"
        #expect(person.firstName == "EMMY")
        #expect(names.values == ["ADA", "GRACE", "EMMY"])
        withExtendedLifetime(normalise) {}
    }

    @Test func aDidSetThatCorrectsTheBindingsWriteInABatchIsCarriedBack() {
        // The right side's `didSet` shortens what the binding writes, inside the write:
        // that set is not the binding's, so the shortened value reaches the left.
        let person = TwoWayPerson()
        let field = TwoWayShortField()
        person.reactive.firstName <~> field.reactive.text
        batchChanges { person.firstName = "Bartholomew" }
        #expect(field.text == "Bart")
        #expect(person.firstName == "Bart")
        person.firstName = "Ada"
        #expect(field.text == "Ada")
        field.text = "Emmeline"
        #expect(person.firstName == "Emme")
    }

    @Test func aSetAfterTheBindingsWriteInOneFlushIsCarriedBack() {
        // In one flush the binding writes the right, then an observer sets the right
        // again: the batch makes one notification, whose last set is the observer's, so
        // it is no echo, and it reaches the left.
        let person = TwoWayPerson()
        let field = TwoWayField()
        person.reactive.firstName <~> field.reactive.text
        let override = person.observe(\.firstName, options: [.new]) { _, change in
            if change.newValue == "a" { field.text = "user" }
        }
        let names = recordSets(person, \.firstName)
        batchChanges { person.firstName = "a" }
        #expect(field.text == "user")
        #expect(person.firstName == "user")
        #expect(names.values == ["a", "user"])
        withExtendedLifetime(override) {}
    }

    // MARK: Lifetime

    @Test func storedInTheRightSidesSubscriptions() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        person.reactive.firstName <~> field.reactive.text
        #expect(field.subscriptions.count == 1)
        field.subscriptions.removeAll()                            // ends it, both ways
        person.firstName = "Ada"
        field.text = "Joan"
        #expect(field.text == "Joan")
        #expect(person.firstName == "Ada")
    }

    @Test func droppingTheReturnedCancellableEndsNothing() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        do { _ = person.reactive.firstName <~> field.reactive.text }
        person.firstName = "Ada"
        #expect(field.text == "Ada")
        field.text = "Joan"
        #expect(person.firstName == "Joan")
    }

    @Test func cancellingEndsBothDirectionsAndReleasesTheClosures() {
        let person = TwoWayPerson()
        let field = TwoWayField()
        weak var weakToken: Canary?
        let binding: AnyCancellable
        do {
            let token = Canary()
            weakToken = token
            binding = person.reactive.firstName.bind(
                twoWay: field.reactive.text,
                forward: { withExtendedLifetime(token) {}; return $0 },
                backward: { withExtendedLifetime(token) {}; return $0 })
        }
        binding.cancel()
        #expect(weakToken == nil)
        person.firstName = "Ada"
        field.text = "Joan"
        #expect(field.text == "Joan")
        #expect(person.firstName == "Ada")
        binding.cancel()                                            // idempotent
    }

    @Test func bothSidesAreReleased() {
        weak var weakPerson: TwoWayPerson?
        weak var weakField: TwoWayField?
        weak var weakToken: Canary?
        var binding: AnyCancellable?
        do {
            let person = TwoWayPerson()
            let field = TwoWayField()
            let token = Canary()
            weakPerson = person
            weakField = field
            weakToken = token
            binding = person.reactive.firstName.bind(
                twoWay: field.reactive.text,
                forward: { withExtendedLifetime(token) {}; return $0 },
                backward: { withExtendedLifetime(token) {}; return $0 })
            field.text = "Ada"
            #expect(person.firstName == "Ada")
        }
        #expect(released { weakPerson == nil && weakField == nil })
        #expect(released { weakToken == nil })
        binding?.cancel()                                           // late: harmless
    }

    @Test func leftSideGoingEndsTheBindingAtOnce() {
        let field = TwoWayField()
        weak var weakPerson: TwoWayPerson?
        weak var forwardToken: Canary?
        weak var backwardToken: Canary?
        var backwardCalls = 0
        do {
            let person = TwoWayPerson()
            weakPerson = person
            let forwardCanary = Canary()
            let backwardCanary = Canary()
            forwardToken = forwardCanary
            backwardToken = backwardCanary
            person.reactive.firstName.bind(
                twoWay: field.reactive.text,
                forward: { withExtendedLifetime(forwardCanary) {}; return $0 },
                backward: { withExtendedLifetime(backwardCanary) {}; backwardCalls += 1; return $0 })
        }
        #expect(released { weakPerson == nil })
        #expect(released { forwardToken == nil && backwardToken == nil })  // both observations, with no further change
        field.text = "Ada"
        #expect(backwardCalls == 0)
    }

    @Test func rightSideGoingEndsTheBindingAtOnce() {
        let person = TwoWayPerson()
        weak var weakField: TwoWayField?
        weak var forwardToken: Canary?
        weak var backwardToken: Canary?
        var forwardCalls = 0
        do {
            let field = TwoWayField()
            weakField = field
            let forwardCanary = Canary()
            let backwardCanary = Canary()
            forwardToken = forwardCanary
            backwardToken = backwardCanary
            person.reactive.firstName.bind(
                twoWay: field.reactive.text,
                forward: { withExtendedLifetime(forwardCanary) {}; forwardCalls += 1; return $0 },
                backward: { withExtendedLifetime(backwardCanary) {}; return $0 })
        }
        #expect(released { weakField == nil })
        #expect(released { forwardToken == nil && backwardToken == nil })
        person.firstName = "Ada"
        #expect(forwardCalls == 1)                                   // the initial value only
    }

    @Test func bindingASideThatIsGoneDoesNothing() {
        let field = TwoWayField()
        let property: WritableModelProperty<TwoWayPerson, String> = {
            let person = TwoWayPerson()
            return person.reactive.firstName
        }()
        #expect(property.model == nil)
        let binding = property <~> field.reactive.text
        #expect(field.text == "")
        #expect(field.subscriptions.isEmpty)
        field.text = "Ada"
        binding.cancel()
    }

    // MARK: Threads

    @Test func theRightIsWrittenOnTheThreadThatChangedTheLeft() {
        let person = UncheckedBox(TwoWayPerson())
        let field = TwoWayField()
        person.value.reactive.firstName <~> field.reactive.text
        let texts = recordSets(field, \.text)
        let setter = Locked<DeliveryContext?>(nil)
        runOnAnotherThread {
            setter.value = .current
            person.value.firstName = "Ada"
        }
        #expect(texts.values == ["Ada"])
        #expect(texts.deliveryContexts == [setter.value])
    }

    @Test func cancelledOnAnotherThreadWhileBothSidesChange() {
        for _ in 0..<20 {
            let person = UncheckedBox(TwoWayPerson())
            let field = UncheckedBox(TwoWayField())
            let binding = person.value.reactive.firstName <~> field.value.reactive.text
            runConcurrently([
                {
                    // One thread owns both models: it sets them, alternately.
                    for index in 0..<500 {
                        if index.isMultiple(of: 2) {
                            person.value.firstName = "l\(index)"
                        } else {
                            field.value.text = "r\(index)"
                        }
                    }
                },
                { binding.cancel() },
            ])
            // The last set was the right side's: the left has it, or the binding had ended.
            #expect(field.value.text == "r499")
            #expect(["l498", "r499"].contains(person.value.firstName))
            field.value.text = "after"
            #expect(person.value.firstName != "after")
        }
    }

    @Test func sidesReleasedOnAnotherThreadWhileTheOtherChanges() {
        for _ in 0..<20 {
            let field = UncheckedBox(TwoWayField())
            let person = Locked<TwoWayPerson?>(TwoWayPerson())
            weak var weakPerson: TwoWayPerson?
            person.withLock { person in
                weakPerson = person
                person!.reactive.firstName <~> field.value.reactive.text
            }
            runConcurrently([
                { for index in 0..<500 { field.value.text = "r\(index)" } },
                { person.withLock { $0 = nil } },
            ])
            #expect(released { weakPerson == nil })
            field.value.text = "last"                                  // nothing to write
        }
    }
}

// MARK: Main-actor owners

@Suite("Bindings: two-way bindings with main-actor owners")
@MainActor
struct BindTwoWayMainActorTests {
    @Test func aMainActorRightSideIsOnlyWrittenOnTheMainThread() async {
        let main = DeliveryContext.current
        let person = UncheckedBox(TwoWayPerson())
        let field = TwoWayMainField()
        person.value.reactive.firstName <~> field.reactive.text
        #expect(field.text == "Grace")                               // made on the main thread: at once
        let texts = recordSets(field, \.text)
        let names = recordSets(person.value, \.firstName)
        runOnAnotherThread {
            person.value.firstName = "a"
            person.value.firstName = "b"
        }
        #expect(texts.values == [])                                  // on its way through the main queue
        await drainMainQueue()
        #expect(texts.values == ["a", "b"])
        #expect(texts.deliveryContexts == [main, main])
        #expect(names.values == ["a", "b"])                          // no echo
        field.text = "c"                                             // on the main thread: the left at once
        #expect(person.value.firstName == "c")
        #expect(names.values == ["a", "b", "c"])
        #expect(texts.values == ["a", "b", "c"])
        #expect(field.subscriptions.count == 1)
    }

    @Test func aMainActorRightSideDropsWhatIsQueuedWhenCancelled() async {
        let person = UncheckedBox(TwoWayPerson())
        let field = TwoWayMainField()
        let binding = person.value.reactive.firstName <~> field.reactive.text
        runOnAnotherThread { person.value.firstName = "a" }
        binding.cancel()
        await drainMainQueue()
        #expect(field.text == "Grace")
        field.text = "b"
        #expect(person.value.firstName == "a")
    }

    @Test func aMainActorRightSideIsReleased() async {
        weak var weakField: TwoWayMainField?
        weak var weakPerson: TwoWayPerson?
        do {
            let person = TwoWayPerson()
            let field = TwoWayMainField()
            weakField = field
            weakPerson = person
            person.reactive.firstName <~> field.reactive.text
            field.text = "Ada"
            #expect(person.firstName == "Ada")
        }
        await drainMainQueue()
        #expect(released { weakField == nil && weakPerson == nil })
    }

    @Test func aMainActorLeftSideIsOnlyWrittenOnTheMainThread() async {
        let main = DeliveryContext.current
        let viewModel = TwoWayMainViewModel()
        let field = UncheckedBox(TwoWayField())
        viewModel.reactive.name <~> field.value.reactive.text
        #expect(field.value.text == "m")
        let names = recordSets(viewModel, \.name)
        let texts = recordSets(field.value, \.text)
        runOnAnotherThread {
            field.value.text = "a"
            field.value.text = nil                                   // leaves the left as it is
            field.value.text = "b"
        }
        #expect(names.values == [])                                  // on its way through the main queue
        await drainMainQueue()
        #expect(viewModel.name == "b")
        #expect(names.values == ["a", "b"])
        #expect(names.deliveryContexts == [main, main])
        #expect(texts.values == ["a", nil, "b"])                     // no echo
        viewModel.name = "c"
        #expect(field.value.text == "c")
        #expect(texts.values == ["a", nil, "b", "c"])
    }
}

// MARK: Misuse

@Suite("Bindings: a property bound two ways to itself stops with a message")
struct BindTwoWayExitTests {
    @Test func bindingAPropertyToItself() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let field = TwoWayField()
            field.reactive.text <~> field.reactive.text
        }
        #expect(standardError(of: result).contains("is bound two ways to itself"))
    }
}
