import Testing
@testable import Bindings

@Suite("Operators: dropFirst")
struct OperatorsDropTests {
    @Test func dropsTheFirstValueByDefault() {
        let recorder = OpsARecorder<Int, Never>()
        [1, 2, 3, 4].publisher.dropFirst().subscribe(recorder)
        #expect(recorder.events == [.value(2), .value(3), .value(4), .finished])
    }

    @Test func dropsTheGivenCount() {
        let two = OpsARecorder<Int, Never>()
        [1, 2, 3, 4].publisher.dropFirst(2).subscribe(two)
        #expect(two.events == [.value(3), .value(4), .finished])
        let none = OpsARecorder<Int, Never>()
        [1, 2].publisher.dropFirst(0).subscribe(none)
        #expect(none.events == [.value(1), .value(2), .finished])
        let all = OpsARecorder<Int, Never>()
        [1, 2].publisher.dropFirst(5).subscribe(all)
        #expect(all.events == [.finished])
        #expect(all.violations.isEmpty)
    }

    @Test func skipsTheCurrentValueOfASubject() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = OpsARecorder<Int, Never>()
        subject.dropFirst().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.events == [.value(1), .value(2)])
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, OpsATestError>()
        let recorder = OpsARecorder<Int, OpsATestError>()
        subject.dropFirst().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(2), .failure(.boom)])
    }

    @Test func failureDuringTheDroppedValuesIsForwarded() {
        let subject = PassthroughSubject<Int, OpsATestError>()
        let recorder = OpsARecorder<Int, OpsATestError>()
        subject.dropFirst(3).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom)])
    }

    @Test func honoursDemandOneAtATime() {
        let requests = OpsALog<Subscribers.Demand>()
        let recorder = OpsARecorder<Int, Never>(demand: .max(1))
        [1, 2, 3].publisher.handleEvents(receiveRequest: { requests.append($0) })
            .dropFirst().subscribe(recorder)
        // The subscriber's .max(1), then .max(1) for the dropped value.
        #expect(recorder.events == [.value(2)])
        #expect(requests.items == [.max(1), .max(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(2), .value(3), .finished])
        #expect(requests.items == [.max(1), .max(1), .max(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelStopsDeliveryAndCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = OpsALog<Int>()
        let recorder = OpsARecorder<Int, Never>()
        subject.handleEvents(receiveCancel: { cancels.append(1) }).dropFirst().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        recorder.cancel()
        subject.send(3)
        #expect(recorder.events == [.value(2)])
        #expect(cancels.count == 1)
    }
}
