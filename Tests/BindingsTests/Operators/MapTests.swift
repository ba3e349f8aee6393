import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: map")
struct OperatorsMapTests {
    @Test func transformsEachValueThenFinishes() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<String, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.map { "#\($0)" }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        #expect(recorder.events == [.value("#1"), .value("#2"), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.map { $0 * 10 }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(10), .failure(.boom)])
    }

    @Test func keyPathReadsTheProperty() {
        let mapped: Publishers.MapKeyPath<Publishers.Sequence<[String], Never>, Int> =
            ["a", "bcd", ""].publisher.map(\.count)
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        mapped.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(3), .value(0), .finished])
    }

    @Test func keyPathForwardsFailure() {
        let subject = PassthroughSubject<String, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.map(\.count).subscribe(recorder)
        subject.send("ab")
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(2), .failure(.boom)])
    }

    @Test func consecutiveMapsFuse() {
        let fused: Publishers.Map<Just<Int>, String> = Just(2).map { $0 + 1 }.map { "\($0 * 10)" }
        let recorder = TestRecorder<String, Never>(releasesSubscription: [.onCompletion, .onCancel])
        fused.subscribe(recorder)
        #expect(recorder.events == [.value("30"), .finished])
    }

    @Test func honoursDemandOneAtATime() {
        let requests = LockedLog<Subscribers.Demand>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        (1...3).publisher.handleEvents(receiveRequest: { requests.append($0) })
            .map { $0 * 2 }.subscribe(recorder)
        #expect(recorder.events == [.value(2)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(2), .value(4)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(2), .value(4), .value(6), .finished])
        #expect(requests.items == [.max(1), .max(1), .max(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func keyPathHonoursDemand() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        ["a", "bb"].publisher.map(\.count).subscribe(recorder)
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelStopsDeliveryAndCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).map { $0 + 1 }.subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(2)])
        #expect(cancels.count == 1)
    }

    @Test func keyPathCancelStopsDelivery() {
        let subject = PassthroughSubject<String, Never>()
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).map(\.count).subscribe(recorder)
        subject.send("abc")
        recorder.cancel()
        subject.send("de")
        #expect(recorder.events == [.value(3)])
        #expect(cancels.count == 1)
    }
}
