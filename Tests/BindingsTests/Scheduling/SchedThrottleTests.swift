import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Scheduling: throttle")
struct SchedThrottleTests {
    typealias Event = RecordedEvent<Int, TestError>

    /// A pipeline throttled to 100 ms on a ``TestScheduler``.
    private func makePipeline(
        latest: Bool, initialDemand: Subscribers.Demand = .unlimited
    ) -> (TestScheduler, TestPublisher<Int, TestError>, TestRecorder<Int, TestError>) {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: initialDemand, releasesSubscription: [])
        upstream.throttle(for: .milliseconds(100), scheduler: scheduler, latest: latest).subscribe(recorder)
        return (scheduler, upstream, recorder)
    }

    /// The same timeline for both flavours: 1 at 0 ms, 2 at 10, 3 at 20, 4 at 250, 5 at
    /// 260, the completion at 270.
    private func runTimeline(latest: Bool) -> [[Event]] {
        let (scheduler, upstream, recorder) = makePipeline(latest: latest)
        var snapshots: [[Event]] = []
        upstream.send(1)
        snapshots.append(recorder.events)         // scheduled, not yet run
        scheduler.advance()
        snapshots.append(recorder.events)         // the first value goes out at once
        scheduler.advance(toMilliseconds: 10)
        upstream.send(2)
        scheduler.advance(toMilliseconds: 20)
        upstream.send(3)
        scheduler.advance(toMilliseconds: 99)
        snapshots.append(recorder.events)         // held until the interval ends
        scheduler.advance(toMilliseconds: 100)
        snapshots.append(recorder.events)
        scheduler.advance(toMilliseconds: 250)
        upstream.send(4)                          // a full interval since the last: at once
        scheduler.advance()
        snapshots.append(recorder.events)
        scheduler.advance(toMilliseconds: 260)
        upstream.send(5)
        scheduler.advance(toMilliseconds: 270)
        upstream.send(completion: .finished)      // waits for the held value
        scheduler.advance(toMilliseconds: 349)
        snapshots.append(recorder.events)
        scheduler.advance(toMilliseconds: 350)
        snapshots.append(recorder.events)
        #expect(upstream.log == [.subscribed, .request(.unlimited)])
        #expect(scheduler.pendingCount == 0)
        return snapshots
    }

    @Test func latestEmitsTheFirstValueAtOnceThenTheLatestOfEachInterval() {
        #expect(runTimeline(latest: true) == [
            [],
            [.value(1)],
            [.value(1)],
            [.value(1), .value(3)],
            [.value(1), .value(3), .value(4)],
            [.value(1), .value(3), .value(4)],
            [.value(1), .value(3), .value(4), .value(5), .finished],
        ])
    }

    @Test func firstEmitsTheFirstValueAtOnceThenTheFirstOfEachInterval() {
        #expect(runTimeline(latest: false) == [
            [],
            [.value(1)],
            [.value(1)],
            [.value(1), .value(2)],
            [.value(1), .value(2), .value(4)],
            [.value(1), .value(2), .value(4)],
            [.value(1), .value(2), .value(4), .value(5), .finished],
        ])
    }

    @Test func valuesBeforeTheFirstEmissionRunsCollapseToOne() {
        for (latest, expected) in [(true, 3), (false, 1)] {
            let (scheduler, upstream, recorder) = makePipeline(latest: latest)
            upstream.send(1)
            upstream.send(2)
            upstream.send(3)
            scheduler.advance(toMilliseconds: 1_000)
            #expect(recorder.events == [.value(expected)], "latest: \(latest)")
        }
    }

    @Test func completionWithNothingHeldIsDeliveredAtOnce() {
        let (scheduler, upstream, recorder) = makePipeline(latest: true)
        upstream.send(1)
        scheduler.advance(toMilliseconds: 10)
        upstream.send(completion: .failure(.boom))
        upstream.send(2)                          // after the completion: ignored
        #expect(recorder.events == [.value(1)])
        scheduler.advance()
        #expect(recorder.events == [.value(1), .failure(.boom)])
        #expect(scheduler.elapsedMilliseconds == 10)
    }

    @Test func aValueWithoutDemandIsDropped() {
        let (scheduler, upstream, recorder) = makePipeline(latest: true, initialDemand: .max(1))
        upstream.send(1)
        scheduler.advance(toMilliseconds: 200)
        upstream.send(2)
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(toMilliseconds: 400)
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        upstream.send(3)
        scheduler.advance()
        #expect(recorder.events == [.value(1), .value(3)])
    }

    @Test func cancelDropsTheHeldValue() {
        let (scheduler, upstream, recorder) = makePipeline(latest: true)
        upstream.send(1)
        scheduler.advance(toMilliseconds: 10)
        upstream.send(2)
        recorder.cancel()
        upstream.send(3)
        scheduler.advance(toMilliseconds: 500)
        #expect(recorder.events == [.value(1)])
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
    }

    @Test func immediateSchedulerDeliversEveryValue() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        subject.throttle(for: .seconds(1), scheduler: ImmediateScheduler.shared, latest: false).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    /// An upstream that sends as soon as it is asked (`Just`, a sequence) reaches the
    /// subscriber after its subscription, with the demand it asked for: the subscriber is
    /// given the subscription before the upstream is asked for values (the completion
    /// arrived first, and the value, with no demand yet, was dropped).
    @Test func anUpstreamThatSendsAtOnceComesAfterTheSubscription() {
        for latest in [false, true] {
            let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
            Just(1).throttle(for: .seconds(1), scheduler: ImmediateScheduler.shared, latest: latest).subscribe(recorder)
            #expect(recorder.events == [.subscription, .value(1), .finished], "latest: \(latest)")
            #expect(recorder.violations == [])
        }
        let scheduler = TestScheduler()
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        [1, 2, 3].publisher.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true).subscribe(recorder)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription, .value(3), .finished])
        #expect(recorder.violations == [])
    }

    /// A subscriber that cancels from `receive(subscription:)` leaves the upstream
    /// unasked.
    @Test func aSubscriberThatCancelsOnItsSubscriptionLeavesTheUpstreamUnasked() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none)
        recorder.onSubscription = { $0.cancel() }
        upstream.throttle(for: .milliseconds(100), scheduler: TestScheduler(), latest: true).subscribe(recorder)
        #expect(upstream.log == [.subscribed, .cancel])
    }
}
