import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: compactMap")
struct OperatorsCompactMapTests {
    @Test func republishesNonNilResultsThenFinishes() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        ["1", "x", "3", "", "5"].publisher.compactMap { Int($0) }.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(3), .value(5), .finished])
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<String, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.compactMap { Int($0) }.subscribe(recorder)
        subject.send("7")
        subject.send("no")
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(7), .failure(.boom)])
    }

    @Test func asksForOneMoreForEachNil() {
        let requests = LockedLog<Subscribers.Demand>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        ["a", "b", "2", "c", "4"].publisher.handleEvents(receiveRequest: { requests.append($0) })
            .compactMap { Int($0) }.subscribe(recorder)
        // The subscriber's .max(1), then one replacement for each of "a" and "b".
        #expect(recorder.events == [.value(2)])
        #expect(requests.items == [.max(1), .max(1), .max(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(2), .value(4), .finished])
        #expect(requests.items == [.max(1), .max(1), .max(1), .max(1), .max(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelStopsDeliveryAndCancelsUpstream() {
        let subject = PassthroughSubject<String, Never>()
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).compactMap { Int($0) }.subscribe(recorder)
        subject.send("1")
        recorder.cancel()
        subject.send("2")
        #expect(recorder.events == [.value(1)])
        #expect(cancels.count == 1)
    }
}
