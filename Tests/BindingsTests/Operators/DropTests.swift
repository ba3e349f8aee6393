import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: dropFirst")
struct OperatorsDropTests {
    @Test func dropsTheFirstValueByDefault() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        [1, 2, 3, 4].publisher.dropFirst().subscribe(recorder)
        #expect(recorder.events == [.value(2), .value(3), .value(4), .finished])
    }

    @Test func dropsTheGivenCount() {
        let two = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        [1, 2, 3, 4].publisher.dropFirst(2).subscribe(two)
        #expect(two.events == [.value(3), .value(4), .finished])
        let none = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        [1, 2].publisher.dropFirst(0).subscribe(none)
        #expect(none.events == [.value(1), .value(2), .finished])
        let all = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        [1, 2].publisher.dropFirst(5).subscribe(all)
        #expect(all.events == [.finished])
        #expect(all.violations.isEmpty)
    }

    @Test func skipsTheCurrentValueOfASubject() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.dropFirst().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.events == [.value(1), .value(2)])
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.dropFirst().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(2), .failure(.boom)])
    }

    @Test func failureDuringTheDroppedValuesIsForwarded() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.dropFirst(3).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom)])
    }

    @Test func honoursDemandOneAtATime() {
        let requests = LockedLog<Subscribers.Demand>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
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
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).dropFirst().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        recorder.cancel()
        subject.send(3)
        #expect(recorder.events == [.value(2)])
        #expect(cancels.count == 1)
    }

    @Test func dropsWhatACarelessUpstreamSendsAfterACancelOrTheCompletion() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        upstream.dropFirst().subscribe(recorder)
        _ = upstream.send(1)
        _ = upstream.send(2)
        recorder.subscription?.cancel()
        _ = upstream.send(3)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(2)])
        #expect(upstream.cancelCount == 1)

        let finishing = TestPublisher<Int, Never>()
        let second = TestRecorder<Int, Never>(releasesSubscription: [])
        finishing.dropFirst(0).subscribe(second)
        _ = finishing.send(1)
        finishing.send(completion: .finished)
        _ = finishing.send(2)
        finishing.send(completion: .finished)
        #expect(second.events == [.value(1), .finished])
        #expect(second.violations.isEmpty)
    }

    @Test func theSubscriberGetsDropsOwnSubscription() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none)
        PassthroughSubject<Int, Never>().dropFirst().subscribe(recorder)
        #expect(recorder.subscription.map { String(describing: $0) } == "Drop")
    }
}
