import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// Issue 13, item 2: the scheduler operators `delay`, `timeout`, `measureInterval` and
// `subscribe(on:)`, on a virtual-time scheduler, with Combine's semantics.

@Suite("Scheduling: delay")
struct SchedDelayTests {
    typealias Event = RecordedEvent<Int, TestError>

    @Test func eachEventArrivesTheIntervalAfterItCameInOrder() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(recordsSubscription: true)
        upstream.delay(for: .milliseconds(100), scheduler: scheduler).subscribe(recorder)
        #expect(recorder.events == [.subscription], "the subscription is not delayed")
        #expect(upstream.requests == [.unlimited], "demand goes straight upstream")
        _ = upstream.send(1)
        scheduler.advance(toMilliseconds: 30)
        _ = upstream.send(2)
        scheduler.advance(toMilliseconds: 99)
        #expect(recorder.events == [.subscription])
        scheduler.advance(toMilliseconds: 100)
        #expect(recorder.events == [.subscription, .value(1)])
        upstream.send(completion: .failure(.boom))
        scheduler.advance(toMilliseconds: 130)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        scheduler.advance(toMilliseconds: 200)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(.boom)])
    }

    @Test func finiteDemandIsTheUpstreamsAndACancelDropsWhatWaits() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(2), releasesSubscription: [])
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
        #expect(upstream.requests == [.max(2)])
        _ = upstream.send(1)
        _ = upstream.send(2)
        scheduler.advance(by: .milliseconds(500))
        recorder.subscription?.cancel()
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events == [])
        #expect(upstream.cancelCount == 1)
    }
}

extension SchedDelayTests {
    @Test func onAConcurrentQueueValuesStillArriveInOrderOnce() {
        // Under ThreadSanitizer in CI: the delayed actions run on several threads at once.
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>()
        subject.delay(for: .microseconds(200), scheduler: DispatchQueue.global()).subscribe(recorder)
        for value in 0..<300 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(recorder.wait(timeout: 10) { $0.count == 301 })
        #expect(recorder.values == Array(0..<300))
        #expect(recorder.events.last == .finished)
        #expect(recorder.violations.isEmpty)
    }
}

@Suite("Scheduling: timeout")
struct SchedTimeoutTests {
    @Test func silenceEndsTheStreamAndCancelsTheUpstream() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>()
        upstream.timeout(.milliseconds(100), scheduler: scheduler).subscribe(recorder)
        #expect(upstream.requests.first == .unlimited)
        scheduler.advance(toMilliseconds: 60)
        _ = upstream.send(1)        // restarts the clock
        scheduler.advance(toMilliseconds: 150)
        #expect(recorder.events == [.value(1)])
        #expect(upstream.cancelCount == 0)
        scheduler.advance(toMilliseconds: 160)
        #expect(recorder.events == [.value(1), .finished])
        #expect(upstream.cancelCount == 1)
        _ = upstream.send(2)        // too late
        scheduler.advance(toMilliseconds: 1_000)
        #expect(recorder.events == [.value(1), .finished])
        #expect(scheduler.pendingCount == 0, "the timer is cancelled")
    }

    @Test func aCustomErrorIsTheFailureOfATimeout() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>()
        upstream.timeout(.seconds(1), scheduler: scheduler, customError: { .other }).subscribe(recorder)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.failure(.other)])
    }

    @Test func anUpstreamThatEndsInTimeEndsTheStreamItself() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(recorder)
        _ = upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events == [], "delivered on the scheduler")
        scheduler.advance()
        #expect(recorder.events == [.value(1), .failure(.boom)])
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events == [.value(1), .failure(.boom)])
        #expect(scheduler.pendingCount == 0)
        #expect(upstream.cancelCount == 0)
    }

    /// The subscriber gets its subscription before anything else, also when the
    /// clock runs out at once (an immediate scheduler; issue: `.finished` came first).
    @Test func theSubscriptionComesBeforeTheCompletion() {
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        PassthroughSubject<Int, Never>().timeout(.seconds(1), scheduler: ImmediateScheduler.shared).subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func aCancelStopsTheClockAndTheUpstream() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(recorder)
        recorder.subscription?.cancel()
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events == [])
        #expect(upstream.cancelCount == 1)
        #expect(scheduler.pendingCount == 0)
    }
}

@Suite("Scheduling: measureInterval and subscribe(on:)")
struct SchedMeasureSubscribeOnTests {
    @Test func measuresTheTimeSinceTheSubscriptionThenSinceEachValue() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = TestRecorder<DispatchQueue.SchedulerTimeType.Stride, Never>()
        subject.measureInterval(using: scheduler).subscribe(recorder)
        scheduler.advance(toMilliseconds: 20)
        subject.send("a")
        scheduler.advance(toMilliseconds: 50)
        subject.send("b")
        subject.send("c")
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(.milliseconds(20)), .value(.milliseconds(30)), .value(.zero), .finished])
    }

    @Test func subscribesRequestsAndCancelsOnTheScheduler() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), recordsSubscription: true, releasesSubscription: [])
        upstream.subscribe(on: scheduler).subscribe(recorder)
        #expect(upstream.log == [])
        #expect(recorder.events == [])
        // One advance runs the subscription, then the request it scheduled.
        scheduler.advance()
        #expect(recorder.events == [.subscription])
        #expect(upstream.log == [.subscribed, .request(.max(1))])
        _ = upstream.send(5)   // values arrive where the upstream sends them
        #expect(recorder.events == [.subscription, .value(5)])
        recorder.subscription?.request(.max(2))
        #expect(upstream.requests == [.max(1)], "scheduled, not yet run")
        scheduler.advance()
        #expect(upstream.requests == [.max(1), .max(2)])
        recorder.subscription?.cancel()
        #expect(upstream.cancelCount == 0)
        scheduler.advance()
        #expect(upstream.cancelCount == 1)
    }

    @Test func aCancelBeforeTheSubscriptionCancelsItWhenItArrives() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let c = upstream.subscribe(on: scheduler).sink { _ in }
        c.cancel()
        scheduler.advance()
        #expect(upstream.log == [.subscribed, .cancel])
    }
}
