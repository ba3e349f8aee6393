import BindingsTestSupport
import Testing
@testable import Bindings

// Issue 13, item 2: `buffer(size:prefetch:whenFull:)`, with Combine's semantics.

@Suite("Operators: buffer")
struct BufferTests {
    typealias Event = RecordedEvent<Int, TestError>

    @Test func keepFullAsksForTheSizeThenOneMorePerValueDelivered() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none)
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        #expect(upstream.requests == [.max(3)])
        for value in 1...3 { _ = upstream.send(value) }
        #expect(recorder.events == [])
        recorder.request(.max(2))
        #expect(recorder.events == [.value(1), .value(2)])
        #expect(upstream.requests == [.max(3), .max(2)], "refilled by what was delivered")
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2)], "a finish waits for the buffered values")
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])
    }

    @Test func byRequestAsksForEverythingAndPassesValuesOnAsDemandAllows() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(1))
        upstream.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        #expect(upstream.requests == [.unlimited])
        _ = upstream.send(1)
        _ = upstream.send(2)
        #expect(recorder.events == [.value(1)])
        recorder.request(.unlimited)
        _ = upstream.send(3)
        #expect(recorder.events == [.value(1), .value(2), .value(3)])
    }

    @Test func whenFullDropNewestOrOldest() {
        for (strategy, expected) in [
            (Publishers.BufferingStrategy<TestError>.dropNewest, [1, 2]),
            (.dropOldest, [3, 4]),
        ] {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = TestRecorder<Int, TestError>(initialDemand: .none)
            upstream.buffer(size: 2, prefetch: .byRequest, whenFull: strategy).subscribe(recorder)
            for value in 1...4 { _ = upstream.send(value) }
            recorder.request(.unlimited)
            #expect(recorder.values == expected)
        }
    }

    @Test func whenFullWithACustomErrorFailsAndCancelsTheUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none)
        upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .customError { .other }).subscribe(recorder)
        _ = upstream.send(1)
        _ = upstream.send(2)
        #expect(recorder.events == [.failure(.other)], "a failure goes when nothing is asked for")
        #expect(upstream.cancelCount == 1)
        _ = upstream.send(3)
        #expect(recorder.events == [.failure(.other)])
    }

    @Test func anUpstreamFailureGoesAtOnceWithoutDemandButAfterWhatIsAsked() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        _ = upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom)])

        let second = TestPublisher<Int, TestError>()
        let asking = TestRecorder<Int, TestError>(initialDemand: .max(1))
        second.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(asking)
        _ = second.send(1)
        _ = second.send(2)
        second.send(completion: .failure(.boom))
        #expect(asking.events == [.value(1), .failure(.boom)])
    }

    /// An upstream that fails as soon as it is asked reaches the subscriber after its
    /// subscription: the subscriber is given it before the upstream is asked for the
    /// prefetch (the failure came first).
    @Test func anUpstreamThatFailsWhenAskedComesAfterTheSubscription() {
        for prefetch in [Publishers.PrefetchStrategy.keepFull, .byRequest] {
            let recorder = TestRecorder<Int, TestError>(recordsSubscription: true)
            // Erased, so that `tryMap` is the operator (of `Just` or a sequence it would
            // be a `Result` publisher, which fails on subscription, not when asked).
            [1].publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()
                .tryMap { _ -> Int in throw TestError.boom }
                .mapError { _ in TestError.boom }
                .buffer(size: 2, prefetch: prefetch, whenFull: .dropNewest)
                .subscribe(recorder)
            #expect(recorder.events == [.subscription, .failure(.boom)], "\(prefetch)")
            #expect(recorder.violations == [])
        }
    }

    /// A subscriber that cancels from `receive(subscription:)` leaves the upstream unasked.
    @Test func aSubscriberThatCancelsOnItsSubscriptionLeavesTheUpstreamUnasked() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none)
        recorder.onSubscription = { $0.cancel() }
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        #expect(upstream.log == [.subscribed, .cancel])
    }

    @Test func aCancelStopsEverything() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none, releasesSubscription: [])
        upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        _ = upstream.send(1)
        recorder.subscription?.cancel()
        recorder.subscription?.request(.max(1))
        _ = upstream.send(2)
        #expect(recorder.events == [])
        #expect(upstream.cancelCount == 1)
    }

    @Test func aNegativeSizeIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = PassthroughSubject<Int, Never>()
            _ = subject.buffer(size: runtimeValue(-1), prefetch: .byRequest, whenFull: .dropOldest).sink { _ in }
        }
        #expect(standardError(of: result).contains("buffer(size: -1) needs a size of 0 or more"))
    }
}
