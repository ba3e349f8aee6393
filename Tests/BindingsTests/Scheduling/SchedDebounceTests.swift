import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

@Suite("Scheduling: debounce")
struct SchedDebounceTests {
    typealias Event = RecordedEvent<Int, TestError>

    /// A debounced pipeline of 100 ms on a ``TestScheduler``.
    private func makePipeline(
        initialDemand: Subscribers.Demand = .unlimited
    ) -> (TestScheduler, TestPublisher<Int, TestError>, TestRecorder<Int, TestError>) {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: initialDemand, releasesSubscription: [])
        upstream.debounce(for: .milliseconds(100), scheduler: scheduler).subscribe(recorder)
        return (scheduler, upstream, recorder)
    }

    @Test func emitsTheLatestValueAfterAQuietPeriod() {
        let (scheduler, upstream, recorder) = makePipeline()
        #expect(upstream.log == [.subscribed, .request(.unlimited)])
        upstream.send(1)
        scheduler.advance(toMilliseconds: 50)
        upstream.send(2)                          // restarts the quiet period: due at 150
        scheduler.advance(toMilliseconds: 149)
        #expect(recorder.events == [])
        scheduler.advance(toMilliseconds: 150)
        #expect(recorder.events == [.value(2)])

        scheduler.advance(toMilliseconds: 200)
        upstream.send(3)
        scheduler.advance(toMilliseconds: 260)
        upstream.send(4)
        scheduler.advance(toMilliseconds: 300)
        upstream.send(5)
        scheduler.advance(toMilliseconds: 399)
        #expect(recorder.events == [.value(2)])
        scheduler.advance(toMilliseconds: 400)
        #expect(recorder.events == [.value(2), .value(5)])

        // Each value is delivered once: its repeating timer was cancelled.
        scheduler.advance(toMilliseconds: 2_000)
        #expect(recorder.events == [.value(2), .value(5)])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func completionDropsThePendingValueAsCombineDoes() {
        let (scheduler, upstream, recorder) = makePipeline()
        upstream.send(1)
        scheduler.advance(toMilliseconds: 40)
        upstream.send(completion: .finished)
        #expect(recorder.events == [])
        scheduler.advance()                       // the completion is scheduled, not delivered inline
        #expect(recorder.events == [.finished])
        scheduler.advance(toMilliseconds: 500)
        #expect(recorder.events == [.finished])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func failureIsDeliveredAfterEarlierValues() {
        let (scheduler, upstream, recorder) = makePipeline()
        upstream.send(1)
        scheduler.advance(toMilliseconds: 100)
        upstream.send(2)
        upstream.send(completion: .failure(.boom))
        upstream.send(3)                          // after the completion: ignored
        scheduler.advance(toMilliseconds: 500)
        #expect(recorder.events == [.value(1), .failure(.boom)])
    }

    @Test func aValueDueWithoutDemandIsDropped() {
        let (scheduler, upstream, recorder) = makePipeline(initialDemand: .max(1))
        upstream.send(1)
        scheduler.advance(toMilliseconds: 100)
        upstream.send(2)
        scheduler.advance(toMilliseconds: 200)
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        upstream.send(3)
        scheduler.advance(toMilliseconds: 300)
        #expect(recorder.events == [.value(1), .value(3)])
        #expect(upstream.log == [.subscribed, .request(.unlimited)])
    }

    @Test func cancelStopsThePendingValueAndItsTimer() {
        let (scheduler, upstream, recorder) = makePipeline()
        upstream.send(1)
        scheduler.advance(toMilliseconds: 50)
        recorder.cancel()
        #expect(scheduler.pendingCount == 0)
        upstream.send(2)
        scheduler.advance(toMilliseconds: 500)
        #expect(recorder.events == [])
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
    }

    @Test func cancelAfterUpstreamCompletionDropsTheScheduledCompletion() {
        let (scheduler, upstream, recorder) = makePipeline()
        upstream.send(completion: .finished)
        recorder.cancel()
        scheduler.advance()
        #expect(recorder.events == [])
    }

    @Test func immediateSchedulerDeliversEachValueAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        subject.debounce(for: .seconds(1), scheduler: ImmediateScheduler.shared).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    @Test func dispatchQueueDeliversTheLastOfABurst() {
        let queue = DispatchQueue(label: "sched.debounce")
        let delivered = DispatchSemaphore(value: 0)
        let recorder = TestRecorder<Int, Never>(releasesSubscription: []) { _ in delivered.signal() }
        let subject = PassthroughSubject<Int, Never>()
        // A quiet period far longer than the burst takes, so the test does not race it.
        subject.debounce(for: .milliseconds(200), scheduler: queue).subscribe(recorder)
        for value in 1...5 { subject.send(value) }
        #expect(delivered.wait(timeout: .now() + 10) == .success)
        #expect(recorder.events == [.value(5)])
        subject.send(completion: .finished)
        #expect(delivered.wait(timeout: .now() + 10) == .success)
        #expect(recorder.events == [.value(5), .finished])
    }
}
