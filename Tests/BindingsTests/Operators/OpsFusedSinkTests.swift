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

    @Test func removeDuplicatesAndScanFuseWithTheSameValuesAsTheirSubscribers() {
        let subject = PassthroughSubject<Int, Never>()
        let fused = LockedLog<Int>()
        let unfused = TestRecorder<Int, Never>()
        let pipeline = subject.map { $0 / 2 }.removeDuplicates().scan(100) { $0 + $1 }
        let c = pipeline.sink { fused.append($0) }
        pipeline.subscribe(unfused)
        #expect(c.targetForTesting is SubjectValueObserver<Int, Never>)
        for value in [0, 1, 2, 3, 3, 4, 9] { subject.send(value) }
        // Halves 0 0 1 1 1 2 4; without repeats 0 1 2 4; running sums from 100.
        #expect(fused.items == [100, 101, 103, 107])
        #expect(unfused.values == fused.items)
        c.cancel()
        subject.send(20)
        #expect(fused.items == [100, 101, 103, 107])
    }

    @Test func eachFusedSinkHasItsOwnState() {
        let subject = PassthroughSubject<Int, Never>()
        let first = LockedLog<Int>()
        let second = LockedLog<Int>()
        let running = subject.scan(0, +)
        let a = running.sink { first.append($0) }
        subject.send(1)
        let b = running.sink { second.append($0) }
        subject.send(2)
        #expect(first.items == [1, 3])
        #expect(second.items == [2])
        withExtendedLifetime((a, b)) {}
    }

    @Test func aSinkOnShareIsOneClosureOnTheSharedSubjectAndCountsAsASubscriber() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let a = LockedLog<Int>()
        let b = TestRecorder<Int, Never>()
        let ca = shared.sink { a.append($0) }
        #expect(upstream.requests == [.unlimited])
        shared.subscribe(b)
        _ = upstream.send(1)
        ca.cancel()
        _ = upstream.send(2)
        #expect(upstream.cancelCount == 0, "the recorder is still attached")
        b.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(a.items == [1])
        #expect(b.values == [1, 2])
        // The fused sink alone: its cancel (or release) disconnects.
        var cc: AnyCancellable? = shared.sink { a.append($0) }
        #expect(upstream.requests == [.unlimited, .unlimited])
        _ = upstream.send(3)
        cc = nil
        #expect(upstream.cancelCount == 2)
        #expect(a.items == [1, 3])
        withExtendedLifetime(cc) {}
    }
}
