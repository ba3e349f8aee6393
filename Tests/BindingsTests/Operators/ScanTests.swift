import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: scan")
struct OperatorsScanTests {
    @Test func publishesEachRunningResult() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        [1, 2, 3].publisher.scan(0, +).subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(3), .value(6), .finished])
    }

    @Test func resultTypeMayDiffer() {
        let recorder = TestRecorder<String, Never>(releasesSubscription: [.onCompletion, .onCancel])
        ["a", "b", "c"].publisher.scan("") { $0 + $1 }.subscribe(recorder)
        #expect(recorder.events == [.value("a"), .value("ab"), .value("abc"), .finished])
    }

    @Test func eachSubscriptionStartsFromTheInitialResult() {
        let publisher = [1, 2].publisher.scan(10, +)
        let first = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let second = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.events == [.value(11), .value(13), .finished])
        #expect(second.events == [.value(11), .value(13), .finished])
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.scan(0, +).subscribe(recorder)
        subject.send(4)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(4), .failure(.boom)])
    }

    @Test func honoursDemandOneAtATime() {
        let requests = LockedLog<Subscribers.Demand>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
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
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).scan(0, +).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        recorder.cancel()
        subject.send(3)
        #expect(recorder.events == [.value(1), .value(3)])
        #expect(cancels.count == 1)
    }
}
