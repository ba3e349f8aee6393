import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

@Suite("Scheduling: collect(.byTime) and collect(.byTimeOrCount)")
struct SchedCollectByTimeTests {
    /// `upstream.collect(strategy)` on a ``TestScheduler``, into a recorder.
    private func makePipeline(
        count: Int? = nil,
        initialDemand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) -> (TestScheduler, TestPublisher<Int, TestError>, TestRecorder<[Int], TestError>) {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<[Int], TestError>(initialDemand: initialDemand, demandPerValue: demandPerValue)
        if let count {
            upstream.collect(.byTimeOrCount(scheduler, .seconds(2), count)).subscribe(recorder)
        } else {
            upstream.collect(.byTime(scheduler, .seconds(2))).subscribe(recorder)
        }
        return (scheduler, upstream, recorder)
    }

    // MARK: By time

    @Test func publishesWhatEachPeriodCollected() {
        let (scheduler, upstream, recorder) = makePipeline()
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(toMilliseconds: 1_999)
        #expect(recorder.events == [])
        scheduler.advance(toMilliseconds: 2_000)
        #expect(recorder.events == [.value([1, 2])])
        scheduler.advance(toMilliseconds: 4_000)   // an empty period publishes nothing
        #expect(recorder.events == [.value([1, 2])])
        upstream.send(3)
        scheduler.advance(toMilliseconds: 6_000)
        #expect(recorder.events == [.value([1, 2]), .value([3])])
        #expect(recorder.violations.isEmpty)
    }

    @Test func finishingPublishesWhatWasCollectedThenFinishes() {
        let (scheduler, upstream, recorder) = makePipeline()
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(toMilliseconds: 2_000)
        upstream.send(3)
        upstream.send(4)
        upstream.send(5)
        scheduler.advance(toMilliseconds: 3_000)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value([1, 2]), .value([3, 4, 5]), .finished])
        #expect(scheduler.pendingCount == 0)   // the periodic action was cancelled
        upstream.send(6)                        // after the completion: dropped
        scheduler.advance(toMilliseconds: 10_000)
        #expect(recorder.events == [.value([1, 2]), .value([3, 4, 5]), .finished])
    }

    @Test func aFailureDropsWhatWasCollected() {
        let (scheduler, upstream, recorder) = makePipeline()
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(toMilliseconds: 2_000)
        upstream.send(3)
        upstream.send(4)
        scheduler.advance(toMilliseconds: 3_000)
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events == [.value([1, 2]), .failure(.boom)])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func asksItsUpstreamForOneElementAtATimeAsCombineDoes() {
        let (_, upstream, recorder) = makePipeline(initialDemand: .max(2))
        #expect(upstream.log == [.subscribed, .request(.max(1))])
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        recorder.request(.max(3))
        #expect(upstream.requests == [.max(1), .max(1)])
    }

    @Test func withoutDemandAPeriodKeepsCollectingUntilTheSubscriberAsks() {
        let (scheduler, upstream, recorder) = makePipeline(initialDemand: .max(1))
        upstream.send(1)
        scheduler.advance(toMilliseconds: 2_000)
        #expect(recorder.events == [.value([1])])
        upstream.send(2)
        scheduler.advance(toMilliseconds: 4_000)   // no demand: 2 stays in the array being filled
        upstream.send(3)
        scheduler.advance(toMilliseconds: 6_000)
        #expect(recorder.events == [.value([1])])
        recorder.request(.max(1))                 // the next period publishes both
        #expect(recorder.events == [.value([1])])
        scheduler.advance(toMilliseconds: 8_000)
        #expect(recorder.events == [.value([1]), .value([2, 3])])
        #expect(recorder.violations.isEmpty)
    }

    @Test func theLastArrayAndTheCompletionWaitForDemand() {
        let (scheduler, upstream, recorder) = makePipeline(initialDemand: .none)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        scheduler.advance(toMilliseconds: 2_000)
        #expect(recorder.events == [])
        recorder.request(.max(1))
        #expect(recorder.events == [.value([1, 2]), .finished])
        #expect(recorder.violations.isEmpty)
    }

    // MARK: By time or count

    @Test func publishesFullArraysAtOnceAndTheRestEachPeriod() {
        let (scheduler, upstream, recorder) = makePipeline(count: 2)
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.events == [.value([1, 2])])   // full: at once, on the upstream's thread
        upstream.send(3)
        scheduler.advance(toMilliseconds: 2_000)
        for value in 4...8 { upstream.send(value) }
        scheduler.advance(toMilliseconds: 4_000)
        upstream.send(completion: .finished)
        #expect(recorder.events == [
            .value([1, 2]), .value([3]), .value([4, 5]), .value([6, 7]), .value([8]), .finished,
        ])
        #expect(recorder.violations.isEmpty)
    }

    @Test func theByCountPeriodKeepsItsRhythm() {
        let (scheduler, upstream, recorder) = makePipeline(count: 2)
        scheduler.advance(toMilliseconds: 1_500)
        upstream.send(1)
        upstream.send(2)                            // full at 1.5 s
        upstream.send(3)
        scheduler.advance(toMilliseconds: 1_999)
        #expect(recorder.events == [.value([1, 2])])
        scheduler.advance(toMilliseconds: 2_000)   // the period ends at 2 s, not 3.5 s
        #expect(recorder.events == [.value([1, 2]), .value([3])])
    }

    @Test func asksForCountElementsPerArray() {
        let (_, upstream, recorder) = makePipeline(count: 3, initialDemand: .max(2), demandPerValue: .max(1))
        #expect(upstream.log == [.subscribed, .request(.max(6))])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        #expect(recorder.events == [.value([1, 2, 3])])
        // The subscriber's `.max(1)` from that array, in elements:
        #expect(upstream.requests == [.max(6), .max(3)])
        recorder.request(.unlimited)
        #expect(upstream.requests == [.max(6), .max(3), .unlimited])
    }

    @Test func fullArraysBeyondDemandWaitForIt() {
        let (scheduler, upstream, recorder) = makePipeline(count: 2, initialDemand: .max(1))
        for value in 1...5 { upstream.send(value) }   // a careless upstream: beyond .max(2)
        scheduler.advance(toMilliseconds: 2_000)
        #expect(recorder.events == [.value([1, 2])])
        recorder.request(.max(2))
        #expect(recorder.events == [.value([1, 2]), .value([3, 4])])
        scheduler.advance(toMilliseconds: 4_000)
        #expect(recorder.events == [.value([1, 2]), .value([3, 4]), .value([5])])
        #expect(recorder.violations.isEmpty)
    }

    // MARK: Cancellation, re-entrance, misuse

    @Test func cancelStopsEverything() {
        let (scheduler, upstream, recorder) = makePipeline(count: 3)
        upstream.send(1)
        recorder.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(scheduler.pendingCount == 0)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .finished)
        scheduler.advance(toMilliseconds: 10_000)
        #expect(recorder.events == [])
    }

    @Test func cancellingFromInsideADeliveryStopsAtOnce() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<[Int], Never>()
        recorder.onValue = { _ in recorder.cancel() }
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 1)).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        scheduler.advance(toMilliseconds: 5_000)
        #expect(recorder.events == [.value([1])])
        #expect(scheduler.pendingCount == 0)
        recorder.onValue = nil   // the hook holds the recorder
    }

    @Test func aSendFromInsideADeliveryComesAfterIt() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<[Int], Never>()
        recorder.onValue = { array in
            if array == [1] { subject.send(2) }
        }
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 1)).subscribe(recorder)
        subject.send(1)
        #expect(recorder.events == [.value([1]), .value([2])])
        #expect(recorder.violations.isEmpty)
        recorder.onValue = nil   // the hook holds the subject, which holds the recorder
        recorder.cancel()
    }

    @Test func describesItselfAsCombineDoes() {
        let scheduler = TestScheduler()
        let recorder = TestRecorder<[Int], Never>(initialDemand: .none)
        var subscription: (any Subscription)?
        recorder.onSubscription = { subscription = $0 }
        Empty<Int, Never>(completeImmediately: false).collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        #expect(subscription.map { String(describing: $0) } == "CollectByTime")
        recorder.cancel()
    }

    @Test func aCountBelowOneStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<[Int], Never>()
            Just(1).collect(.byTimeOrCount(ImmediateScheduler.shared, 1, runtimeValue(0))).subscribe(recorder)
        }
        #expect(standardError(of: result).contains("collect(.byTimeOrCount(_, _, 0)) needs a count of 1 or more"))
    }

    @Test func aZeroRequestStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<[Int], Never>(initialDemand: .none)
            PassthroughSubject<Int, Never>().collect(.byTime(DispatchQueue.main, .seconds(1))).subscribe(recorder)
            recorder.request(.none)
        }
        #expect(standardError(of: result).contains("request(_:) was called with a demand of zero"))
    }

    // MARK: Threads

    /// One thread sends while the periodic action fires on a queue: every element arrives
    /// once, in order, in arrays of at most `count`, never two deliveries at once.
    @Test func aSenderAndTheQueuesPeriodDoNotRace() {
        let queue = DispatchQueue(label: "collect.byTime.period")
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<[Int], Never>()
        subject.collect(.byTimeOrCount(queue, .microseconds(50), 7)).subscribe(recorder)
        let total = 5_000
        DispatchQueue.global().async {
            for value in 0..<total { subject.send(value) }
            subject.send(completion: .finished)
        }
        #expect(recorder.wait { $0.last == .finished })
        #expect(recorder.values.flatMap { $0 } == Array(0..<total))
        #expect(recorder.values.allSatisfy { (1...7).contains($0.count) })
        #expect(recorder.violations.isEmpty)
    }
}
