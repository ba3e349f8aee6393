import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: drop(while:), tryDrop(while:), prefix(while:), tryPrefix(while:)")
struct OperatorsDropWhilePrefixWhileTests {
    @Test func dropWhileDropsUntilThePredicateFirstSaysNo() {
        let calls = Counter()
        let recorder = TestRecorder<Int, Never>()
        AnyPublisher([1, 2, 5, 1, 7].publisher).drop { value in
            calls.increment()
            return value < 3
        }
        .subscribe(recorder)
        #expect(recorder.events == [.value(5), .value(1), .value(7), .finished])
        #expect(calls.value == 3)   // never asked again once it said no
    }

    @Test func dropWhileAsksForAReplacementOfEachDroppedValue() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(1))
        upstream.drop { $0 < 3 }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(3) == .none)
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(3), .failure(.boom)])
        #expect(upstream.requests == [.max(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func tryDropWhileFailsWithTheThrownError() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, any Error>()
        upstream.tryDrop { try throwing(on: 2)($0) < 5 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(7)
        #expect(recorder.testErrorEvents == [.failure(.boom)])
        #expect(upstream.cancelCount == 1)

        let passing = TestRecorder<Int, any Error>()
        [1, 6, 2].publisher.tryDrop { $0 < 5 }.subscribe(passing)
        #expect(passing.testErrorEvents == [.value(6), .value(2), .finished])
    }

    @Test func prefixWhileFinishesAtTheFirstNoAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>()
        upstream.prefix { $0 < 3 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.cancelCount == 0)
        upstream.send(3)
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func prefixWhileHonoursDemand() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1))
        AnyPublisher((1...10).publisher).prefix { $0 < 3 }.subscribe(recorder)
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func tryPrefixWhileFinishesOrFails() {
        let finishing = TestRecorder<Int, any Error>()
        [1, 2, 5, 1].publisher.tryPrefix { $0 < 3 }.subscribe(finishing)
        #expect(finishing.testErrorEvents == [.value(1), .value(2), .finished])

        let upstream = TestPublisher<Int, Never>()
        let failing = TestRecorder<Int, any Error>()
        upstream.tryPrefix { try throwing(on: 2)($0) < 3 }.subscribe(failing)
        upstream.send(1)
        upstream.send(2)
        upstream.send(1)
        #expect(failing.testErrorEvents == [.value(1), .failure(.boom)])
        #expect(upstream.cancelCount == 1)
    }

    @Test func upstreamFailuresGoDown() {
        let subject = PassthroughSubject<Int, TestError>()
        let prefix = TestRecorder<Int, TestError>()
        let tryPrefix = TestRecorder<Int, any Error>()
        let tryDrop = TestRecorder<Int, any Error>()
        subject.prefix { _ in true }.subscribe(prefix)
        subject.tryPrefix { _ in true }.subscribe(tryPrefix)
        subject.tryDrop { _ in false }.subscribe(tryDrop)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(prefix.events == [.value(1), .failure(.boom)])
        #expect(tryPrefix.testErrorEvents == [.value(1), .failure(.boom)])
        #expect(tryDrop.testErrorEvents == [.value(1), .failure(.boom)])
    }

    @Test func cancelFromInsideReceiveSendsNothingMore() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>()
        recorder.onValue = { [unowned recorder] value in
            if value == 4 { recorder.cancel() }
        }
        subject.drop { $0 < 3 }.subscribe(recorder)
        for value in 1...6 { subject.send(value) }
        #expect(recorder.events == [.value(3), .value(4)])
    }

    @Test func subscriptionsAreNamedAsCombineNamesThem() {
        let subject = PassthroughSubject<Int, Never>()
        #expect(subscriptionName(of: subject.drop { _ in true }) == "DropWhile")
        #expect(subscriptionName(of: subject.tryDrop { _ in true }) == "TryDropWhile")
        #expect(subscriptionName(of: subject.prefix { _ in true }) == "PrefixWhile")
        #expect(subscriptionName(of: subject.tryPrefix { _ in true }) == "TryPrefixWhile")
    }
}
