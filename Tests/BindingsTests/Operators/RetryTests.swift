import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// The type name starts with "Operators" so that `swift test --filter Operators` selects it.
@Suite("Operators: retry")
struct OperatorsRetryTests {
    /// A publisher that counts its subscriptions and fails the first `failures` of them
    /// after sending the attempt's number; later ones send it and finish.
    struct Flaky: Publisher {
        typealias Output = Int
        typealias Failure = TestError

        let attempts: Counter
        let failures: Int

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
            let attempt = attempts.increment()
            let recorded = Record<Int, TestError>(
                output: [attempt], completion: attempt <= failures ? .failure(TestError(attempt)) : .finished)
            recorded.receive(subscriber: subscriber)
        }
    }

    @Test func resubscribesOnFailureUpToTheGivenNumberOfTimes() {
        let attempts = Counter()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        let retried: Publishers.Retry<Flaky> = Flaky(attempts: attempts, failures: 2).retry(3)
        retried.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])
        #expect(attempts.value == 3)

        let exhausted = Counter()
        let failing = TestRecorder<Int, TestError>(releasesSubscription: [])
        Flaky(attempts: exhausted, failures: 10).retry(2).subscribe(failing)
        #expect(failing.events == [.value(1), .value(2), .value(3), .failure(TestError(3))])
        #expect(exhausted.value == 3)
    }

    @Test func zeroOrNegativeRetriesPassTheFirstFailureOn() {
        for retries in [0, -3] {
            let attempts = Counter()
            let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
            Flaky(attempts: attempts, failures: 5).retry(retries).subscribe(recorder)
            #expect(recorder.events == [.value(1), .failure(TestError(1))])
            #expect(attempts.value == 1)
        }
    }

    @Test func noLimitRetriesUntilTheUpstreamSucceeds() {
        let attempts = Counter()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        Publishers.Retry(upstream: Flaky(attempts: attempts, failures: 50), retries: nil).subscribe(recorder)
        #expect(recorder.values == Array(1...51))
        #expect(recorder.events.last == .finished)
    }

    @Test func manyImmediateFailuresDoNotGrowTheStack() {
        let attempts = Counter()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        Fail<Int, TestError>(error: .boom)
            .handleEvents(receiveSubscription: { _ in attempts.increment() })
            .retry(20_000)
            .subscribe(recorder)
        #expect(recorder.events == [.failure(.boom)])
        #expect(attempts.value == 20_001)
    }

    @Test func demandCarriesOverToTheNewSubscription() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(3), releasesSubscription: [])
        upstream.retry(1).subscribe(recorder)
        #expect(upstream.requests == [.max(3)])
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        // Subscribed again: asked for the two values still owed.
        #expect(upstream.log == [.subscribed, .request(.max(3)), .subscribed, .request(.max(2))])
        upstream.send(2)
        upstream.send(3)
        upstream.send(4)   // beyond the demand: dropped
        #expect(recorder.values == [1, 2, 3])
        upstream.send(completion: .failure(.other))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .failure(.other)])
        #expect(recorder.violations == [])
    }

    @Test func demandReturnedFromReceiveIsReturnedUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(2), releasesSubscription: [])
        upstream.retry(1).subscribe(recorder)
        #expect(upstream.send(1) == .max(2))
        upstream.send(completion: .failure(.boom))
        #expect(upstream.requests == [.max(1), .max(2)])
        recorder.cancel()
    }

    @Test func aFailedSubscriptionsLateEventsAreDropped() {
        // Each attempt's subscriber is kept, to drive the failed one after the next began.
        let sides = Locked<[AnySubscriber<Int, TestError>]>([])
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        CapturingPublisher(sides: sides).retry(2).subscribe(recorder)
        let first = sides.value[0]
        first.receive(subscription: TestSubscription())
        _ = first.receive(1)
        first.receive(completion: .failure(.boom))
        let second = sides.value[1]
        let secondSubscription = TestSubscription()
        second.receive(subscription: secondSubscription)
        #expect(secondSubscription.requests == [.unlimited])
        _ = first.receive(99)                       // the failed attempt, late: dropped
        first.receive(completion: .finished)        // likewise
        first.receive(completion: .failure(.other))
        first.receive(subscription: TestSubscription())   // a second subscription: cancelled
        _ = second.receive(2)
        second.receive(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(sides.count == 2)
    }

    /// A publisher that hands each subscriber to the test, which drives it by hand.
    struct CapturingPublisher: Publisher {
        typealias Output = Int
        typealias Failure = TestError
        let sides: Locked<[AnySubscriber<Int, TestError>]>

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
            sides.withLock { $0.append(AnySubscriber(subscriber)) }
        }
    }

    @Test func cancelCancelsTheCurrentSubscriptionAndStopsRetrying() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        upstream.retry(5).subscribe(recorder)
        upstream.send(completion: .failure(.boom))
        recorder.cancel()
        #expect(upstream.cancelCount == 1)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))   // after the cancel: no new attempt
        #expect(upstream.log.filter { $0 == .subscribed }.count == 2)
        #expect(recorder.events == [])
    }

    @Test func reentrantSendsAreDeliveredInOrder() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        recorder.onValue = { value in if value < 3 { subject.send(value + 1) } }
        subject.retry(1).subscribe(recorder)
        subject.send(1)
        #expect(recorder.values == [1, 2, 3])
        recorder.onValue = nil   // the hook holds the subject, which holds the recorder
        recorder.cancel()
    }

    @Test func justAndResultPublishersRetryAsThemselves() {
        let just: Just<Int> = Just(1).retry(3)
        #expect(just.output == 1)
        let result: Result<Int, TestError>.Publisher = Result<Int, TestError>.failure(.boom).publisher.retry(3)
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        result.subscribe(recorder)
        #expect(recorder.events == [.failure(.boom)])
        #expect(Publishers.Retry(upstream: Just(1), retries: 2) == Publishers.Retry(upstream: Just(1), retries: 2))
        #expect(Publishers.Retry(upstream: Just(1), retries: 2) != Publishers.Retry(upstream: Just(1), retries: nil))
    }

    @Test func releasesItsSubscriberAtCompletionAndCancel() {
        weak var weakRecorder: TestRecorder<Int, TestError>?
        do {
            let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
            weakRecorder = recorder
            Flaky(attempts: Counter(), failures: 1).retry(1).subscribe(recorder)
            #expect(recorder.events == [.value(1), .value(2), .finished])
        }
        #expect(weakRecorder == nil)

        let subject = PassthroughSubject<Int, TestError>()
        do {
            let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
            weakRecorder = recorder
            subject.retry(1).subscribe(recorder)
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
    }

    @Test func failuresFromAnotherThreadResubscribeWhileValuesFlow() {
        let failures = 200
        let count = 20_000
        // Each subscription gets a subject of its own; the threads send to the latest.
        let current = Locked(PassthroughSubject<Int, TestError>())
        let subscriptions = Counter()
        let upstream = Deferred { () -> PassthroughSubject<Int, TestError> in
            subscriptions.increment()
            let subject = PassthroughSubject<Int, TestError>()
            current.value = subject
            return subject
        }
        let detector = OverlapDetector()
        var received: [Int] = []   // appended without a lock on purpose
        var completions: [Subscribers.Completion<TestError>] = []
        let cancellable = upstream.retry(failures).sink(
            receiveCompletion: { completion in detector.watch { completions.append(completion) } },
            receiveValue: { value in detector.watch { received.append(value) } })
        runConcurrently([
            { for value in 0..<count { current.value.send(value) } },
            {
                for _ in 0..<failures {
                    let failing = current.value
                    failing.send(completion: .failure(.boom))
                    // The next failure goes to the next subscription (made on this thread,
                    // or on the other if it was delivering a value through this subject).
                    while current.value === failing { sched_yield() }
                }
            },
        ])
        current.value.send(completion: .finished)

        #expect(detector.overlaps == 0)
        #expect(subscriptions.value == failures + 1)
        // What reached a live subscription arrives once, in the order it was sent.
        #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 })
        #expect(completions.count == 1)
        if case .finished = completions.first {} else { Issue.record("expected .finished, got \(completions)") }
        withExtendedLifetime(cancellable) {}
    }
}
