import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// The type names start with "Operators" so that `swift test --filter Operators` selects them.
@Suite("Operators: drop(untilOutputFrom:)")
struct OperatorsDropUntilOutputTests {
    @Test func dropsUntilTheOtherPublishesThenPassesAsInCombinesExample() {
        let upstream = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<String, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        let dropping: Publishers.DropUntilOutput<PassthroughSubject<Int, Never>, PassthroughSubject<String, Never>> =
            upstream.drop(untilOutputFrom: second)
        dropping.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        second.send("A")
        upstream.send(3)
        upstream.send(4)
        second.send("B")
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(3), .value(4), .finished])
    }

    @Test func asksTheOtherForOneValueAndCancelsItAfterIt() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<Void, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        upstream.drop(untilOutputFrom: other).subscribe(recorder)
        #expect(other.log == [.subscribed, .request(.max(1))])
        other.send(())
        #expect(other.log == [.subscribed, .request(.max(1)), .cancel])
        other.send(completion: .failure(.boom))   // after its value: ignored
        upstream.send(1)
        #expect(recorder.events == [.value(1)])
        recorder.cancel()
    }

    @Test func theOthersCompletionBeforeItsValueEndsTheStream() {
        for completion in [Subscribers.Completion<TestError>.finished, .failure(.boom)] {
            let upstream = TestPublisher<Int, TestError>()
            let other = TestPublisher<Int, TestError>()
            let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
            upstream.drop(untilOutputFrom: other).subscribe(recorder)
            upstream.send(1)
            other.send(completion: completion)
            #expect(recorder.events == [.completion(completion)])
            #expect(upstream.cancelCount == 1)
            upstream.send(2)
            upstream.send(completion: .finished)
            #expect(recorder.events == [.completion(completion)])
        }
    }

    @Test func theUpstreamsCompletionEndsTheStreamAndCancelsTheOther() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        upstream.drop(untilOutputFrom: other).subscribe(recorder)
        upstream.send(completion: .failure(.other))
        #expect(recorder.events == [.failure(.other)])
        #expect(other.cancelCount == 1)
        other.send(1)
        other.send(completion: .finished)
        #expect(recorder.events == [.failure(.other)])
    }

    @Test func anOtherThatPublishesAtOnceOpensTheStreamFromTheStart() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        [1, 2, 3].publisher.drop(untilOutputFrom: Just(())).subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])

        let never = TestRecorder<Int, Never>(releasesSubscription: [])
        [1, 2, 3].publisher.drop(untilOutputFrom: Empty<Void, Never>()).subscribe(never)
        #expect(never.events == [.finished])   // the other finished first: the upstream is never subscribed
    }

    @Test func demandPassesThroughAndDroppedValuesUseItUpAsInCombine() {
        let upstream = TestPublisher<Int, TestError>()
        let other = PassthroughSubject<Void, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(3), releasesSubscription: [])
        upstream.drop(untilOutputFrom: other).subscribe(recorder)
        #expect(upstream.requests == [.max(3)])
        upstream.send(1)   // dropped: one of the three used up
        other.send(())
        upstream.send(2)
        upstream.send(3)
        upstream.send(4)   // beyond the demand: dropped
        #expect(recorder.values == [2, 3])
        recorder.request(.max(1))
        #expect(upstream.requests == [.max(3), .max(1)])
        upstream.send(5)
        #expect(recorder.values == [2, 3, 5])
        #expect(recorder.violations == [])
        recorder.cancel()
    }

    @Test func aRequestBeforeTheUpstreamSubscribesIsKeptForIt() {
        let upstream = TestPublisher<Int, TestError>(subscribesAtOnce: false)
        let other = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(2), releasesSubscription: [])
        upstream.drop(untilOutputFrom: other).subscribe(recorder)
        recorder.request(.max(1))
        upstream.attach()
        #expect(upstream.requests == [.max(3)])
        recorder.cancel()
    }

    @Test func demandReturnedFromReceiveIsReturnedUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(2), releasesSubscription: [])
        upstream.drop(untilOutputFrom: Just(()).setFailureType(to: TestError.self)).subscribe(recorder)
        #expect(upstream.send(1) == .max(2))
        recorder.cancel()
    }

    @Test func cancelCancelsBoth() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        upstream.drop(untilOutputFrom: other).subscribe(recorder)
        recorder.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(other.cancelCount == 1)
        other.send(1)
        upstream.send(2)
        other.send(completion: .failure(.boom))
        #expect(recorder.events == [])
    }

    @Test func reentrantSendsAreDeliveredAfterTheCurrentValue() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        var depth = 0
        var maxDepth = 0
        recorder.onValue = { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            if value < 3 { upstream.send(value + 1) }   // straight back into the operator
            depth -= 1
        }
        upstream.drop(untilOutputFrom: Just(())).subscribe(recorder)
        upstream.send(1)
        #expect(recorder.values == [1, 2, 3])
        #expect(maxDepth == 1)
        recorder.onValue = nil   // the hook holds the upstream, which holds the recorder
        recorder.cancel()
    }

    @Test func theOthersFailureOnAnotherThreadNeverOverlapsAValue() {
        for _ in 0..<50 {
            let upstream = PassthroughSubject<Int, TestError>()
            let other = PassthroughSubject<Int, TestError>()
            let detector = OverlapDetector()
            var events: [String] = []   // appended without a lock on purpose
            let cancellable = upstream.drop(untilOutputFrom: other).sink(
                receiveCompletion: { completion in detector.watch { events.append("\(completion)") } },
                receiveValue: { value in detector.watch { events.append("\(value)") } })
            runConcurrently([
                { for value in 0..<1_000 { upstream.send(value) } },
                {
                    other.send(0)
                    other.send(completion: .failure(.boom))   // after its value: ignored
                },
            ])
            upstream.send(completion: .finished)
            #expect(detector.overlaps == 0)
            #expect(events.last == "finished")
            let values = events.dropLast().compactMap(Int.init)
            #expect(values.count == events.count - 1)
            #expect(values == Array((1_000 - values.count)..<1_000))   // a suffix: dropped, then all
            withExtendedLifetime(cancellable) {}
        }
    }

    @Test func releasesItsSubscriberAtCompletionAndCancel() {
        weak var weakRecorder: TestRecorder<Int, Never>?
        let upstream = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            upstream.drop(untilOutputFrom: other).subscribe(recorder)
            other.send(completion: .finished)
            #expect(recorder.events == [.finished])
        }
        #expect(weakRecorder == nil)
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            upstream.drop(untilOutputFrom: PassthroughSubject<Int, Never>()).subscribe(recorder)
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
        #expect(Publishers.DropUntilOutput(upstream: Just(1), other: Just(2)) == .init(upstream: Just(1), other: Just(2)))
    }
}

@Suite("Operators: prefix(untilOutputFrom:)")
struct OperatorsPrefixUntilOutputTests {
    @Test func republishesUntilTheOtherPublishesThenFinishes() {
        let upstream = TestPublisher<Int, TestError>()
        let stop = TestPublisher<String, Never>()   // a failure type of its own
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        let prefixed: Publishers.PrefixUntilOutput<TestPublisher<Int, TestError>, TestPublisher<String, Never>> =
            upstream.prefix(untilOutputFrom: stop)
        prefixed.subscribe(recorder)
        #expect(stop.log == [.subscribed, .request(.max(1))])
        upstream.send(1)
        upstream.send(2)
        stop.send("stop")
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(upstream.cancelCount == 1)
        #expect(stop.cancelCount == 1)
        upstream.send(3)
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    @Test func theOthersCompletionIsIgnored() {
        let upstream = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Void, TestError>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        upstream.prefix(untilOutputFrom: stop).subscribe(recorder)
        stop.send(completion: .failure(.boom))
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(1), .finished])
    }

    @Test func theUpstreamsCompletionIsPassedOnAndCancelsTheOther() {
        let upstream = TestPublisher<Int, TestError>()
        let stop = TestPublisher<Void, Never>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        upstream.prefix(untilOutputFrom: stop).subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1), .failure(.boom)])
        #expect(stop.cancelCount == 1)
        stop.send(())
        #expect(recorder.events == [.value(1), .failure(.boom)])
    }

    @Test func anOtherThatPublishesAtOnceFinishesBeforeTheUpstreamIsSubscribed() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        upstream.prefix(untilOutputFrom: Just(())).subscribe(recorder)
        #expect(recorder.events == [.finished])
        #expect(upstream.log == [])
    }

    @Test func demandPassesThroughExactly() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(2), releasesSubscription: [])
        upstream.prefix(untilOutputFrom: PassthroughSubject<Void, Never>()).subscribe(recorder)
        #expect(upstream.requests == [.max(2)])
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)   // beyond the demand: dropped
        recorder.request(.max(1))
        #expect(upstream.requests == [.max(2), .max(1)])
        upstream.send(4)
        #expect(recorder.values == [1, 2, 4])
        #expect(recorder.violations == [])
        recorder.cancel()
    }

    @Test func cancelCancelsBoth() {
        let upstream = TestPublisher<Int, Never>()
        let stop = TestPublisher<Void, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        upstream.prefix(untilOutputFrom: stop).subscribe(recorder)
        recorder.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(stop.cancelCount == 1)
        stop.send(())
        upstream.send(1)
        #expect(recorder.events == [])
    }

    @Test func aStopFromInsideReceiveEndsTheStreamAfterTheCurrentValue() {
        let upstream = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Void, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        recorder.onValue = { value in
            if value == 2 { stop.send(()) }
        }
        upstream.prefix(untilOutputFrom: stop).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    @Test func aStopOnAnotherThreadEndsTheStreamBetweenTwoValues() {
        for _ in 0..<50 {
            let upstream = PassthroughSubject<Int, Never>()
            let stop = PassthroughSubject<Void, Never>()
            let detector = OverlapDetector()
            var events: [String] = []   // appended without a lock on purpose
            let cancellable = upstream.prefix(untilOutputFrom: stop).sink(
                receiveCompletion: { completion in detector.watch { events.append("\(completion)") } },
                receiveValue: { value in detector.watch { events.append("\(value)") } })
            runConcurrently([
                { for value in 0..<1_000 { upstream.send(value) } },
                { stop.send(()) },
            ])
            #expect(detector.overlaps == 0)
            #expect(events.last == "finished")
            let values = events.dropLast().compactMap(Int.init)
            #expect(values.count == events.count - 1)
            #expect(values == Array(0..<values.count))   // a prefix, then the end
            withExtendedLifetime(cancellable) {}
        }
    }

    @Test func releasesItsSubscriberAtCompletionAndCancel() {
        weak var weakRecorder: TestRecorder<Int, Never>?
        let upstream = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Void, Never>()
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            upstream.prefix(untilOutputFrom: stop).subscribe(recorder)
            stop.send(())
            #expect(recorder.events == [.finished])
        }
        #expect(weakRecorder == nil)
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            upstream.prefix(untilOutputFrom: PassthroughSubject<Void, Never>()).subscribe(recorder)
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
    }

    @Test func describesItselfAsCombinesOperators() {
        let upstream = PassthroughSubject<Int, Never>()
        let prefix = TestRecorder<Int, Never>(releasesSubscription: [])
        let drop = TestRecorder<Int, Never>(releasesSubscription: [])
        upstream.prefix(untilOutputFrom: PassthroughSubject<Void, Never>()).subscribe(prefix)
        upstream.drop(untilOutputFrom: PassthroughSubject<Void, Never>()).subscribe(drop)
        #expect(prefix.subscription.map { String(describing: $0) } == "PrefixUntilOutput")
        #expect(drop.subscription.map { String(describing: $0) } == "DropUntilOutput")
        prefix.cancel()
        drop.cancel()
    }
}
