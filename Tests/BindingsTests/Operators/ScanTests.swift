import Testing
@testable import Bindings

@Suite("Operators: scan")
struct OperatorsScanTests {
    @Test func publishesEachRunningResult() {
        let recorder = OpsARecorder<Int, Never>()
        [1, 2, 3].publisher.scan(0, +).subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(3), .value(6), .finished])
    }

    @Test func resultTypeMayDiffer() {
        let recorder = OpsARecorder<String, Never>()
        ["a", "b", "c"].publisher.scan("") { $0 + $1 }.subscribe(recorder)
        #expect(recorder.events == [.value("a"), .value("ab"), .value("abc"), .finished])
    }

    @Test func eachSubscriptionStartsFromTheInitialResult() {
        let publisher = [1, 2].publisher.scan(10, +)
        let first = OpsARecorder<Int, Never>()
        let second = OpsARecorder<Int, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.events == [.value(11), .value(13), .finished])
        #expect(second.events == [.value(11), .value(13), .finished])
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, OpsATestError>()
        let recorder = OpsARecorder<Int, OpsATestError>()
        subject.scan(0, +).subscribe(recorder)
        subject.send(4)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(4), .failure(.boom)])
    }

    @Test func honoursDemandOneAtATime() {
        let requests = OpsALog<Subscribers.Demand>()
        let recorder = OpsARecorder<Int, Never>(demand: .max(1))
        [1, 2, 3].publisher.handleEvents(receiveRequest: { requests.append($0) })
            .scan(0, +).subscribe(recorder)
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(3)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(3), .value(6), .finished])
        #expect(requests.items == [.max(1), .max(1), .max(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelStopsDeliveryAndCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = OpsALog<Int>()
        let recorder = OpsARecorder<Int, Never>()
        subject.handleEvents(receiveCancel: { cancels.append(1) }).scan(0, +).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        recorder.cancel()
        subject.send(3)
        #expect(recorder.events == [.value(1), .value(3)])
        #expect(cancels.count == 1)
    }
}
