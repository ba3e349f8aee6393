import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: prefix")
struct OperatorsPrefixTests {
    @Test func finishesAndCancelsUpstreamAfterN() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).prefix(2).subscribe(recorder)
        subject.send(1)
        #expect(recorder.events == [.value(1)])
        #expect(cancels.count == 0)
        subject.send(2)
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(cancels.count == 1)
        subject.send(3)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(cancels.count == 1)
        #expect(recorder.violations.isEmpty)
    }

    @Test func zeroFinishesAtOnceAndCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).prefix(0).subscribe(recorder)
        #expect(recorder.events == [.finished])
        #expect(cancels.count == 1)
        subject.send(1)
        #expect(recorder.events == [.finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func upstreamEndingEarlyIsForwarded() {
        let finished = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        [1, 2].publisher.prefix(5).subscribe(finished)
        #expect(finished.events == [.value(1), .value(2), .finished])

        let subject = PassthroughSubject<Int, TestError>()
        let failed = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.prefix(3).subscribe(failed)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(failed.events == [.value(1), .failure(.boom)])
    }

    @Test func honoursDemandOneAtATime() {
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        (1...5).publisher.handleEvents(receiveCancel: { cancels.append(1) }).prefix(3).subscribe(recorder)
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2)])
        #expect(cancels.count == 0)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])
        #expect(cancels.count == 1)
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelStopsDeliveryAndCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).prefix(3).subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        subject.send(3)
        #expect(recorder.events == [.value(1)])
        #expect(cancels.count == 1)
    }

    @Test func cancelDuringTheLastValueSendsNoCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = LockedLog<Int>()
        var cancelMe: TestRecorder<Int, Never>?
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        recorder.onValue = { value in
            if value == 2 { cancelMe?.cancel() }
        }
        cancelMe = recorder
        subject.handleEvents(receiveCancel: { cancels.append(1) }).prefix(2).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.events == [.value(1), .value(2)])
        #expect(cancels.count == 1)
        cancelMe = nil
    }

    @Test func outputPublishesARangeOfPositions() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        Publishers.Output(upstream: (0..<10).publisher, range: 2..<4).subscribe(recorder)
        #expect(recorder.events == [.value(2), .value(3), .finished])
        #expect(recorder.violations.isEmpty)
    }
}
