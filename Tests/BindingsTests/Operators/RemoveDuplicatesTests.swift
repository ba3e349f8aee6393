import Testing
@testable import Bindings

@Suite("Operators: removeDuplicates")
struct OperatorsRemoveDuplicatesTests {
    @Test func dropsConsecutiveEqualValues() {
        let recorder = OpsARecorder<Int, Never>()
        [1, 1, 2, 2, 2, 1, 3, 3].publisher.removeDuplicates().subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .value(1), .value(3), .finished])
    }

    @Test func byUsesThePredicate() {
        let recorder = OpsARecorder<String, Never>()
        ["a", "A", "b", "B", "a"].publisher
            .removeDuplicates { $0.lowercased() == $1.lowercased() }.subscribe(recorder)
        #expect(recorder.events == [.value("a"), .value("b"), .value("a"), .finished])
    }

    @Test func comparesWithTheLastPublishedValue() {
        // "Within 1" is not transitive: 3 is compared with 1 (published), not 2 (dropped).
        let recorder = OpsARecorder<Int, Never>()
        [1, 2, 3, 4].publisher.removeDuplicates { abs($0 - $1) <= 1 }.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(3), .finished])
    }

    @Test func eachSubscriptionStartsAfresh() {
        let publisher = [5, 5].publisher.removeDuplicates()
        let first = OpsARecorder<Int, Never>()
        let second = OpsARecorder<Int, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.events == [.value(5), .finished])
        #expect(second.events == [.value(5), .finished])
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, OpsATestError>()
        let recorder = OpsARecorder<Int, OpsATestError>()
        subject.removeDuplicates().subscribe(recorder)
        subject.send(1)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1), .failure(.boom)])
    }

    @Test func asksForOneMoreForEachDuplicate() {
        let requests = OpsALog<Subscribers.Demand>()
        let recorder = OpsARecorder<Int, Never>(demand: .max(1))
        [1, 1, 2, 2, 3].publisher.handleEvents(receiveRequest: { requests.append($0) })
            .removeDuplicates().subscribe(recorder)
        #expect(recorder.events == [.value(1)])
        #expect(requests.items == [.max(1)])
        recorder.request(.max(1))
        // The request, then a replacement for the second 1.
        #expect(recorder.events == [.value(1), .value(2)])
        #expect(requests.items == [.max(1), .max(1), .max(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])
        #expect(requests.items == [.max(1), .max(1), .max(1), .max(1), .max(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelStopsDeliveryAndCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = OpsALog<Int>()
        let recorder = OpsARecorder<Int, Never>()
        subject.handleEvents(receiveCancel: { cancels.append(1) }).removeDuplicates().subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.events == [.value(1)])
        #expect(cancels.count == 1)
    }
}
