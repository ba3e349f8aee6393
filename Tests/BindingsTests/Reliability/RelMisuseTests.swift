import BindingsTestSupport
import Testing
@testable import Bindings

// SPEC section 7: misuse that must not stop the program. Each test does the misuse next to
// observers that did nothing wrong, and checks that those receive exactly what they would
// have received anyway ("nothing a user can pass corrupts state or loses a notification
// for other observers").

final class RelMisuseModel: KeyValueObservable {
    @Observed var name = "a"
    @Observed var count = 0
    var plain = 0
    var untracked: Int { plain * 2 }   // reads no observable storage
    var label: String { "\(name)#\(count)" }
}

final class RelMisuseOwner: BindingOwner {
    var text: String?
    var texts: [String?] = []
    var subscriptions = Set<AnyCancellable>()
}

@Suite("Reliability: misuse that must not stop the program")
struct RelMisuseTests {
    /// Their misuse is on purpose: its warnings go to `capturedLibraryWarnings`.
    init() { captureLibraryWarnings() }

    @Test func bindingToAReleasedOwnerIsANoOp() {
        let model = RelMisuseModel()
        let witness = LockedLog<String>()
        let kept = model.$name.sink { witness.append($0) }
        var owner: RelMisuseOwner? = RelMisuseOwner()
        let target = owner!.reactive.text       // a target made while the owner lived
        let sink = BindingSink<RelMisuseOwner, String>(owner: owner!) { $0.text = $1 }
        owner = nil
        let first = target <~ model.reactive.name
        let second = sink <~ model.reactive.label
        let third = model.reactive.name ~> target
        #expect(model.$name.channel.observerCount == 1, "only the witness is registered")
        first.cancel()
        second.cancel()
        third.cancel()
        model.name = "b"
        #expect(witness.items == ["a", "b"])
        withExtendedLifetime(kept) {}
    }

    @Test func invalidatingAndCancellingTwiceIsHarmless() {
        let model = RelMisuseModel()
        let witness = LockedLog<String>()
        let kept = model.$name.sink { witness.append($0) }
        let token = model.observe(\.label) { _, _ in }
        let cancellable = model.reactive.label.sink { _ in }
        token.invalidate()
        token.invalidate()
        cancellable.cancel()
        cancellable.cancel()
        model.name = "b"
        token.invalidate()
        #expect(witness.items == ["a", "b"])
        #expect(model.$name.channel.observerCount == 1)
        withExtendedLifetime(kept) {}
    }

    @Test func invalidatingAfterTheModelIsGoneIsHarmless() {
        var model: RelMisuseModel? = RelMisuseModel()
        let token = model!.observe(\.label) { _, _ in }
        let cancellable = model!.publisher(for: \.name).sink { _ in }
        // Observers of another model, made before and after, go on working.
        let other = RelMisuseModel()
        let witness = LockedLog<String>()
        let before = other.publisher(for: \.label).sink { witness.append("before:" + $0) }
        model = nil
        token.invalidate()
        cancellable.cancel()
        token.invalidate()
        let after = other.$name.sink { witness.append("after:" + $0) }
        other.name = "z"
        #expect(witness.items == ["before:a#0", "after:a", "before:z#0", "after:z"])
        withExtendedLifetime((before, after)) {}
    }

    @Test func cancellingItselfInsideItsCallbackLeavesTheOthersWorking() {
        let model = RelMisuseModel()
        let before = LockedLog<String>()
        let after = LockedLog<String>()
        let quitter = LockedLog<String>()
        let first = model.$name.sink { before.append($0) }
        var own: AnyCancellable?
        own = model.$name.sink { value in
            quitter.append(value)
            if value == "b" { own?.cancel() }
        }
        let last = model.$name.sink { after.append($0) }
        model.name = "b"
        model.name = "c"
        #expect(quitter.items == ["a", "b"])
        #expect(before.items == ["a", "b", "c"])
        #expect(after.items == ["a", "b", "c"])
        withExtendedLifetime((first, last, own)) {}
    }

    @Test func cancellingAnotherObserverInsideACallbackStopsItAtOnce() {
        let model = RelMisuseModel()
        let victim = LockedLog<String>()
        let witness = LockedLog<String>()
        var victimToken: AnyCancellable?
        let killer = model.$name.sink { value in
            if value == "b" { victimToken?.cancel() }
        }
        victimToken = model.publisher(for: \.label).sink { victim.append($0) }
        let kept = model.$name.sink { witness.append($0) }
        model.name = "b"   // the victim observes `label`, which depends on `name`: it is after the killer
        model.name = "c"
        #expect(victim.items == ["a#0"], "nothing after cancel(), not even the value in delivery")
        #expect(witness.items == ["a", "b", "c"])
        withExtendedLifetime((killer, kept)) {}
    }

    @Test func releasingAnOwnerInsideItsOwnCallbackLeavesTheOthersWorking() {
        let model = RelMisuseModel()
        var owner: RelMisuseOwner? = RelMisuseOwner()
        weak let weakOwner = owner
        let other = RelMisuseOwner()
        let witness = LockedLog<String>()
        model.reactive.label.bind(to: owner!) { target, label in
            target.texts.append(label)
            if label == "b#0" { owner = nil }   // the last strong reference, from its own callback
        }
        other.reactive.text <~ model.reactive.label
        let kept = model.$name.sink { witness.append($0) }
        model.name = "b"
        #expect(weakOwner == nil)
        model.name = "c"
        #expect(other.text == "c#0")
        #expect(witness.items == ["a", "b", "c"])
        #expect(model.$name.channel.observerCount == 2, "the released owner's binding is gone")
        withExtendedLifetime(kept) {}
    }

    @Test func releasingTheModelInsideACallbackLeavesOtherModelsWorking() {
        var model: RelMisuseModel? = RelMisuseModel()
        let other = RelMisuseModel()
        let witness = LockedLog<String>()
        let kept = other.$name.sink { witness.append($0) }
        let value = ObservableValue(0)
        let bridge = value.sink { number in
            if number == 1 { model = nil }
            other.count = number
        }
        let token = model!.observe(\.label) { _, _ in }
        value.update(1)
        #expect(model == nil)
        other.name = "z"
        #expect(witness.items == ["a", "z"])
        #expect(other.count == 1)
        token.invalidate()
        withExtendedLifetime((kept, bridge)) {}
    }

    @Test func settingFromInsideItsOwnCallbackEndsWithTheLastValue() {
        let model = RelMisuseModel()
        let first = LockedLog<Int>()
        let second = LockedLog<Int>()
        let a = model.$count.sink { value in
            first.append(value)
            if value < 3 { model.count = value + 1 }   // re-entrant set of the same property
        }
        let b = model.$count.sink { second.append($0) }
        // The first observer's initial value already set 1, 2, 3 from its callback (queued
        // behind the initial value, so it saw them all); the second joined at 3.
        #expect(first.items == [0, 1, 2, 3])
        #expect(second.items == [3])
        model.count = 1
        // Queued, not nested: everyone gets every value, in order, and ends current.
        #expect(first.items == [0, 1, 2, 3, 1, 2, 3])
        #expect(second.items == [3, 1, 2, 3])
        #expect(model.count == 3)
        withExtendedLifetime((a, b)) {}
    }

    /// A key path that reads no observable storage gets its initial value and a one-time
    /// warning naming it (checked in a child process, whose stderr the test reads); the
    /// program goes on and other observers are untouched.
    @Test func observingUntrackedStorageWarnsOnceAndGoesOn() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let model = RelMisuseModel()
            model.plain = 21
            var initial: [Int] = []
            let first = model.publisher(for: \.untracked).sink { initial.append($0) }
            let second = model.observe(\.untracked, options: [.initial, .new]) { _, change in initial.append(change.newValue!) }
            var names: [String] = []
            let witness = model.$name.sink { names.append($0) }
            model.plain = 1
            model.name = "b"
            if initial != [42, 42] || names != ["a", "b"] { fatalError("wrong values: \(initial) \(names)") }
            withExtendedLifetime((first, second, witness)) {}
        }
        let message = standardError(of: result)
        #expect(message.contains("observed \\RelMisuseModel."), "the warning names the key path's root: \(message)")
        #expect(message.contains("a computed property of RelMisuseModel, of type Int"), "\(message)")
        #expect(message.contains("reads no @Observed storage"))
        #expect(message.ranges(of: "Bindings warning").count == 1, "once per key path: \(message)")
    }

    /// The warning names the key path as Swift prints it: with the property's name for a
    /// stored property that is not `@Observed` (checked here). A computed property prints
    /// as `\RelMisuseModel.<computed 0x... (Int)>` on Linux, where key paths carry no
    /// names for computed properties (the test above checks that it names the root).
    @Test func untrackedWarningNamesAStoredProperty() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let model = RelMisuseModel()
            let token = model.observe(\.plain, options: [.initial]) { _, _ in }
            withExtendedLifetime(token) {}
        }
        let message = standardError(of: result)
        #expect(message.contains("observed \\RelMisuseModel.plain and saw no change"), "\(message)")
        #expect(message.contains("Mark the stored properties it reads @Observed"), "\(message)")
    }

    @Test func untrackedObservationsDoNotDisturbOthers() {
        let model = RelMisuseModel()
        let untracked = LockedLog<Int>()
        let witness = LockedLog<String>()
        let a = model.publisher(for: \.untracked).sink { untracked.append($0) }
        let b = model.reactive.label.sink { witness.append($0) }
        model.plain = 5
        model.count = 1
        #expect(untracked.items == [0])
        #expect(witness.items == ["a#0", "a#1"])
        a.cancel()
        model.count = 2
        #expect(witness.items == ["a#0", "a#1", "a#2"])
        withExtendedLifetime(b) {}
    }

    @Test func subjectsIgnoreSendsAfterCompletionAndServeLateSubscribers() {
        let subject = PassthroughSubject<Int, Never>()
        let values = LockedLog<Int>()
        var completions = 0
        let c = subject.sink(receiveCompletion: { _ in completions += 1 }, receiveValue: { values.append($0) })
        subject.send(1)
        subject.send(completion: .finished)
        subject.send(2)
        subject.send(completion: .finished)
        var late = 0
        let d = subject.sink(receiveCompletion: { _ in late += 1 }, receiveValue: { _ in late += 100 })
        #expect(values.items == [1])
        #expect(completions == 1)
        #expect(late == 1)
        withExtendedLifetime((c, d)) {}
    }
}
