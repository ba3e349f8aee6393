import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: tryMap")
struct OperatorsTryMapTests {
    @Test func transformsValuesAndFinishes() {
        let recorder = TestRecorder<String, any Error>()
        [1, 2, 3].publisher.tryMap { "#\($0)" }.subscribe(recorder)
        #expect(recorder.testErrorEvents == [.value("#1"), .value("#2"), .value("#3"), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func aThrownErrorCancelsUpstreamAndFailsTheSubscriber() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, any Error>()
        upstream.tryMap(throwing(on: 2)).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.testErrorEvents == [.value(1), .failure(.boom)])
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
        // A careless upstream's late events are dropped.
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(recorder.testErrorEvents == [.value(1), .failure(.boom)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func upstreamFailureAndFinishedPassThrough() {
        let failing = PassthroughSubject<Int, TestError>()
        let failed = TestRecorder<Int, any Error>()
        failing.tryMap { $0 * 10 }.subscribe(failed)
        failing.send(1)
        failing.send(completion: .failure(.other))
        #expect(failed.testErrorEvents == [.value(10), .failure(.other)])

        let finishing = PassthroughSubject<Int, Never>()
        let finished = TestRecorder<Int, any Error>()
        finishing.tryMap { $0 }.subscribe(finished)
        finishing.send(completion: .finished)
        #expect(finished.testErrorEvents == [.finished])
    }

    @Test func demandGoesStraightUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, any Error>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.tryMap { $0 }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        recorder.request(.max(3))
        #expect(upstream.requests == [.max(2), .max(3)])

        let sequence = TestRecorder<Int, any Error>(initialDemand: .max(1))
        (1...3).publisher.tryMap { $0 }.subscribe(sequence)
        #expect(sequence.testErrorEvents == [.value(1)])
        sequence.request(.max(2))
        #expect(sequence.testErrorEvents == [.value(1), .value(2), .value(3), .finished])
        #expect(sequence.violations.isEmpty)
    }

    @Test func cancelMidStreamStopsEverything() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, any Error>()
        upstream.tryMap { $0 }.subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.testErrorEvents == [.value(1)])
        #expect(upstream.cancelCount == 1)
    }

    @Test func aCancelFromInsideReceiveStopsTheNextValues() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, any Error>()
        recorder.onValue = { [unowned recorder] value in
            if value == 1 {
                subject.send(2)   // re-entrant: delivered after this one
                recorder.cancel()
            }
        }
        subject.tryMap { $0 }.subscribe(recorder)
        subject.send(1)
        subject.send(3)
        #expect(recorder.testErrorEvents == [.value(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func fusesWithMap() throws {
        let subject = PassthroughSubject<Int, Never>()
        let afterMap: Publishers.TryMap<PassthroughSubject<Int, Never>, String> = subject.map { $0 + 1 }.tryMap { "\($0)" }
        let thenMap: Publishers.TryMap<PassthroughSubject<Int, Never>, Int> = subject.tryMap(throwing(on: 5)).map { $0 * 2 }
        let twice: Publishers.TryMap<PassthroughSubject<Int, Never>, Int> = subject.tryMap { $0 + 1 }.tryMap(throwing(on: 3))
        let first = TestRecorder<String, any Error>()
        let second = TestRecorder<Int, any Error>()
        let third = TestRecorder<Int, any Error>()
        afterMap.subscribe(first)
        thenMap.subscribe(second)
        twice.subscribe(third)
        subject.send(1)
        subject.send(2)
        subject.send(5)
        #expect(first.testErrorEvents == [.value("2"), .value("3"), .value("6")])
        #expect(second.testErrorEvents == [.value(2), .value(4), .failure(.boom)])
        #expect(third.testErrorEvents == [.value(2), .failure(.boom)])
        #expect(try afterMap.transform(41) == "42")
    }

    @Test func theSubscriberGetsTryMapsOwnSubscription() {
        let recorder = TestRecorder<Int, any Error>(initialDemand: .none)
        PassthroughSubject<Int, Never>().tryMap { $0 }.subscribe(recorder)
        #expect(recorder.subscription.map { String(describing: $0) } == "TryMap")
        recorder.cancel()
    }
}
