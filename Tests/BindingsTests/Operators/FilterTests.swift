import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: filter")
struct OperatorsFilterTests {
    @Test func republishesMatchingValuesThenFinishes() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        (1...6).publisher.filter { $0.isMultiple(of: 2) }.subscribe(recorder)
        #expect(recorder.events == [.value(2), .value(4), .value(6), .finished])
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.filter { $0 > 1 }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        subject.send(3)
        #expect(recorder.events == [.value(2), .failure(.boom)])
    }

    @Test func consecutiveFiltersFuse() {
        let fused: Publishers.Filter<Publishers.Sequence<ClosedRange<Int>, Never>> =
            (1...12).publisher.filter { $0.isMultiple(of: 2) }.filter { $0.isMultiple(of: 3) }
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        fused.subscribe(recorder)
        #expect(recorder.events == [.value(6), .value(12), .finished])
    }

    @Test func asksForOneMoreForEachDroppedValue() {
        let requests = LockedLog<Subscribers.Demand>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        (1...6).publisher.handleEvents(receiveRequest: { requests.append($0) })
            .filter { $0.isMultiple(of: 2) }.subscribe(recorder)
        // The subscriber's .max(1), then .max(1) to replace the dropped 1.
        #expect(recorder.events == [.value(2)])
        #expect(requests.items == [.max(1), .max(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(2), .value(4)])
        #expect(requests.items == [.max(1), .max(1), .max(1), .max(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(2), .value(4), .value(6), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelStopsDeliveryAndCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).filter { $0 > 0 }.subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.events == [.value(1)])
        #expect(cancels.count == 1)
    }
}
