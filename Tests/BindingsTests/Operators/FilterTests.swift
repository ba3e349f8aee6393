import Testing
@testable import Bindings

@Suite("Operators: filter")
struct OperatorsFilterTests {
    @Test func republishesMatchingValuesThenFinishes() {
        let recorder = OpsARecorder<Int, Never>()
        (1...6).publisher.filter { $0.isMultiple(of: 2) }.subscribe(recorder)
        #expect(recorder.events == [.value(2), .value(4), .value(6), .finished])
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, OpsATestError>()
        let recorder = OpsARecorder<Int, OpsATestError>()
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
        let recorder = OpsARecorder<Int, Never>()
        fused.subscribe(recorder)
        #expect(recorder.events == [.value(6), .value(12), .finished])
    }

    @Test func asksForOneMoreForEachDroppedValue() {
        let requests = OpsALog<Subscribers.Demand>()
        let recorder = OpsARecorder<Int, Never>(demand: .max(1))
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
        let cancels = OpsALog<Int>()
        let recorder = OpsARecorder<Int, Never>()
        subject.handleEvents(receiveCancel: { cancels.append(1) }).filter { $0 > 0 }.subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.events == [.value(1)])
        #expect(cancels.count == 1)
    }
}
