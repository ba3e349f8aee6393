import BindingsTestSupport
import Testing
@testable import Bindings

// `sink(receiveValue:)` on `map`, `filter` and `compactMap` of a property or subject
// fuses into one closure on the channel: the same values, in order, never stale, and the
// same lifetime as the unfused chain.

final class FusedModel: KeyValueObservable {
    @Observed var value = 0
    var valueStorage: Observed<Int> { _value }
}

@Suite("Operators: a fused map, filter and compactMap chain")
struct FusedSinkTests {
    @Test func mapThenFilterOnAProperty() {
        let model = FusedModel()
        let received = LockedLog<Int>()
        let c = model.$value.map { $0 * 10 }.filter { $0 % 20 == 0 }.sink { received.append($0) }
        for value in 1...5 { model.value = value }
        #expect(received.items == [0, 20, 40])
        c.cancel()
        model.value = 6
        #expect(received.items == [0, 20, 40])
        #expect(model.valueStorage.observerCount == 0)
    }

    /// The values alone would not tell fused from unfused: what the handle cancels does.
    @Test func aFusableChainIsOneObserverOnTheChannel() {
        let model = FusedModel()
        let fused = model.$value.map { $0 * 2 }.filter { $0 > 0 }.compactMap { $0 }.sink { _ in }
        let unfused = model.$value.map { $0 }.handleEvents(receiveOutput: { _ in }).sink { _ in }
        #expect(fused.targetForTesting is ValueObserver<Int>)
        #expect(unfused.targetForTesting != nil)
        #expect(!(unfused.targetForTesting is ValueObserver<Int>))
        withExtendedLifetime((fused, unfused)) {}
    }

    @Test func compactMapOnASubjectAndOnAKeyPath() {
        let subject = PassthroughSubject<String, Never>()
        let model = FusedModel()
        let numbers = LockedLog<Int>()
        let c = subject.compactMap { Int($0) }.map { $0 + 1 }.sink { numbers.append($0) }
        let d = model.publisher(for: \.value, options: [.new]).compactMap { $0 > 1 ? $0 : nil }.sink { numbers.append(-$0) }
        subject.send("1")
        subject.send("x")
        model.value = 1
        model.value = 2
        subject.send("41")
        #expect(numbers.items == [2, -2, 42])
        withExtendedLifetime((c, d)) {}
    }

    @Test func aNestedSetLeavesNoSubscriberStale() {
        let model = FusedModel()
        let first = LockedLog<Int>()
        let second = LockedLog<Int>()
        let a = model.$value.map { $0 }.sink { value in
            first.append(value)
            if value == 1 { model.value = 2 }
        }
        let b = model.$value.filter { _ in true }.sink { second.append($0) }
        model.value = 1
        #expect(first.items == [0, 1, 2])
        #expect(second.items == [0, 1, 2])
        withExtendedLifetime((a, b)) {}
    }

    @Test func theClosuresGoWithTheModelWhileTheCancellableIsHeld() {
        var model: FusedModel? = FusedModel()
        weak var weakCanary: Canary?
        let c: AnyCancellable = {
            let canary = Canary()
            weakCanary = canary
            return model!.$value.map { value -> Int in canary.touch(); return value }.sink { _ in }
        }()
        model = nil
        #expect(weakCanary == nil)
        withExtendedLifetime(c) {}
    }

    @Test func aChainThatCannotFuseStillDeliversThroughSubscribers() {
        let model = FusedModel()
        let received = LockedLog<Int>()
        let seen = LockedLog<Int>()
        let c = model.$value.map { $0 + 1 }.handleEvents(receiveOutput: { seen.append($0) }).filter { $0 > 1 }
            .sink { received.append($0) }
        model.value = 1
        model.value = 2
        #expect(seen.items == [1, 2, 3])
        #expect(received.items == [2, 3])
        withExtendedLifetime(c) {}
    }
}
