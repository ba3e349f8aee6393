import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: removeDuplicates")
struct OperatorsRemoveDuplicatesTests {
    @Test func dropsConsecutiveEqualValues() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        [1, 1, 2, 2, 2, 1, 3, 3].publisher.removeDuplicates().subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .value(1), .value(3), .finished])
    }

    @Test func byUsesThePredicate() {
        let recorder = TestRecorder<String, Never>(releasesSubscription: [.onCompletion, .onCancel])
        ["a", "A", "b", "B", "a"].publisher
            .removeDuplicates { $0.lowercased() == $1.lowercased() }.subscribe(recorder)
        #expect(recorder.events == [.value("a"), .value("b"), .value("a"), .finished])
    }

    @Test func comparesWithTheLastPublishedValue() {
        // "Within 1" is not transitive: 3 is compared with 1 (published), not 2 (dropped).
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        [1, 2, 3, 4].publisher.removeDuplicates { abs($0 - $1) <= 1 }.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(3), .finished])
    }

    @Test func eachSubscriptionStartsAfresh() {
        let publisher = [5, 5].publisher.removeDuplicates()
        let first = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let second = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.events == [.value(5), .finished])
        #expect(second.events == [.value(5), .finished])
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.removeDuplicates().subscribe(recorder)
        subject.send(1)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1), .failure(.boom)])
    }

    @Test func asksForOneMoreForEachDuplicate() {
        let requests = LockedLog<Subscribers.Demand>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
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
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).removeDuplicates().subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.events == [.value(1)])
        #expect(cancels.count == 1)
    }
}

@Suite("Operators: removeDuplicates with upstreams that break the rules")
struct RemoveDuplicatesUpstreamRulesTests {
    @Test func lateValuesAndCompletionsAreDroppedAndASecondSubscriptionIsCancelled() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>()
        upstream.removeDuplicates().subscribe(recorder)
        upstream.send(1)
        upstream.send(1)
        upstream.send(completion: .finished)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(1), .finished])
        let second = TestPublisher<Int, Never>()
        let inner = Publishers.RemoveDuplicates<TestPublisher<Int, Never>>.Inner(downstream: TestRecorder<Int, Never>(), predicate: ==)
        second.subscribe(inner)
        second.attach()
        #expect(second.cancelCount == 1)
    }

    @Test func aValueBeforeTheSubscriptionStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, Never>(subscribesAtOnce: false)
            upstream.removeDuplicates().subscribe(TestRecorder<Int, Never>())
            upstream.send(1)
        }
        #expect(standardError(of: result).contains("removeDuplicates received a value before its subscription"))
    }
}
