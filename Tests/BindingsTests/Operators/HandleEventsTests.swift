import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: handleEvents")
struct OperatorsHandleEventsTests {
    /// Records every closure call of a `handleEvents` as a line of text.
    private func logging<P: Publisher>(_ publisher: P, into log: LockedLog<String>) -> Publishers.HandleEvents<P> {
        publisher.handleEvents(
            receiveSubscription: { _ in log.append("subscription") },
            receiveOutput: { log.append("output \($0)") },
            receiveCompletion: { log.append("completion \($0)") },
            receiveCancel: { log.append("cancel") },
            receiveRequest: { log.append("request \($0)") })
    }

    @Test func runsTheClosuresInOrderAndForwardsEverything() {
        let log = LockedLog<String>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        logging([1, 2].publisher, into: log).subscribe(recorder)
        // The subscriber gets its subscription (and asks) before upstream is subscribed.
        #expect(log.items == ["request max(1)", "subscription", "output 1"])
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        recorder.cancel()
        #expect(log.items == [
            "request max(1)", "subscription", "output 1", "request max(1)", "output 2", "completion finished",
        ])
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func demandReturnedFromAValueIsReported() {
        let log = LockedLog<String>()
        let recorder = TestRecorder<Int, Never>(
            initialDemand: .max(1), demandPerValue: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        logging([7, 8].publisher, into: log).subscribe(recorder)
        #expect(log.items == [
            "request max(1)", "subscription", "output 7", "request max(1)", "output 8", "request max(1)",
            "completion finished",
        ])
        #expect(recorder.events == [.value(7), .value(8), .finished])
    }

    @Test func forwardsFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let completions = LockedLog<Subscribers.Completion<TestError>>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCompletion: { completions.append($0) }).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1), .failure(.boom)])
        #expect(completions.items == [.failure(.boom)])
    }

    @Test func cancelRunsOnceStopsDeliveryAndCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let log = LockedLog<String>()
        let upstreamCancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        logging(subject.handleEvents(receiveCancel: { upstreamCancels.append(1) }), into: log)
            .subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        recorder.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(1)])
        #expect(log.items == ["request unlimited", "subscription", "output 1", "cancel"])
        #expect(upstreamCancels.count == 1)
    }

    @Test func cancelBeforeUpstreamSubscribesCancelsItOnArrival() {
        let subject = PassthroughSubject<Int, Never>()
        let log = LockedLog<String>()
        let received = LockedLog<Int>()
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.cancel() },
            receiveValue: { received.append($0); return .none })
        subject.handleEvents(receiveCancel: { log.append("inner cancel") })
            .handleEvents(receiveCancel: { log.append("outer cancel") })
            .subscribe(subscriber)
        subject.send(1)
        #expect(log.items == ["outer cancel", "inner cancel"])
        #expect(received.items == [])
    }

    @Test func demandBeforeTheSubscriptionAccumulatesAndIsReported() {
        // The subscriber gets its subscription first and asks at once; the upstream's
        // subscription comes later and is asked for the sum.
        let upstream = TestPublisher<Int, Never>(subscribesAtOnce: false)
        let requests = LockedLog<Subscribers.Demand>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(2))
        upstream.handleEvents(receiveRequest: { requests.append($0) }).subscribe(recorder)
        recorder.request(.max(3))
        #expect(requests.items == [.max(2), .max(3)])
        #expect(upstream.requests == [])
        upstream.attach()
        #expect(upstream.requests == [.max(5)])
        #expect(requests.items == [.max(2), .max(3)])
    }

    @Test func noCancelAfterCompletion() {
        let log = LockedLog<String>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        logging(Just(1), into: log).subscribe(recorder)
        recorder.cancel()
        #expect(log.items == ["request unlimited", "subscription", "output 1", "completion finished"])
        #expect(recorder.events == [.value(1), .finished])
    }
}
