import Testing
@testable import Bindings

@Suite("Operators: map")
struct OperatorsMapTests {
    @Test func transformsEachValueThenFinishes() {
        let subject = PassthroughSubject<Int, OpsATestError>()
        let recorder = OpsARecorder<String, OpsATestError>()
        subject.map { "#\($0)" }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        #expect(recorder.events == [.value("#1"), .value("#2"), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, OpsATestError>()
        let recorder = OpsARecorder<Int, OpsATestError>()
        subject.map { $0 * 10 }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(10), .failure(.boom)])
    }

    @Test func keyPathReadsTheProperty() {
        let mapped: Publishers.MapKeyPath<Publishers.Sequence<[String], Never>, Int> =
            ["a", "bcd", ""].publisher.map(\.count)
        let recorder = OpsARecorder<Int, Never>()
        mapped.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(3), .value(0), .finished])
    }

    @Test func keyPathForwardsFailure() {
        let subject = PassthroughSubject<String, OpsATestError>()
        let recorder = OpsARecorder<Int, OpsATestError>()
        subject.map(\.count).subscribe(recorder)
        subject.send("ab")
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(2), .failure(.boom)])
    }

    @Test func consecutiveMapsFuse() {
        let fused: Publishers.Map<Just<Int>, String> = Just(2).map { $0 + 1 }.map { "\($0 * 10)" }
        let recorder = OpsARecorder<String, Never>()
        fused.subscribe(recorder)
        #expect(recorder.events == [.value("30"), .finished])
    }

    @Test func honoursDemandOneAtATime() {
        let requests = OpsALog<Subscribers.Demand>()
        let recorder = OpsARecorder<Int, Never>(demand: .max(1))
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
        let recorder = OpsARecorder<Int, Never>(demand: .max(1))
        ["a", "bb"].publisher.map(\.count).subscribe(recorder)
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelStopsDeliveryAndCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = OpsALog<Int>()
        let recorder = OpsARecorder<Int, Never>()
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
        let cancels = OpsALog<Int>()
        let recorder = OpsARecorder<Int, Never>()
        subject.handleEvents(receiveCancel: { cancels.append(1) }).map(\.count).subscribe(recorder)
        subject.send("abc")
        recorder.cancel()
        subject.send("de")
        #expect(recorder.events == [.value(3)])
        #expect(cancels.count == 1)
    }
}
