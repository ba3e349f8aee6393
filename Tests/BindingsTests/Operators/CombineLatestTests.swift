import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// The type name starts with "Operators" so that `swift test --filter Operators` selects it
// (the filter matches test identifiers, not suite display names).
@Suite("Operators: combineLatest")
struct OperatorsCombineLatestTests {
    typealias Recorder = TestRecorder<(Int, Int), Never>

    /// A recorder of pairs that keeps its subscription for ever (a careless subscriber).
    private func pairRecorder(initial: Subscribers.Demand = .unlimited) -> Recorder {
        Recorder(initialDemand: initial, releasesSubscription: [])
    }

    // Tuples are not `Equatable`: the tests compare each combination as an array.
    private static func pair(_ tuple: (Int, Int)) -> [Int] { [tuple.0, tuple.1] }
    private static func triple(_ tuple: (Int, Int, Int)) -> [Int] { [tuple.0, tuple.1, tuple.2] }

    @Test func emitsOnceEveryUpstreamHasEmittedThenTheLatestOfEach() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = pairRecorder()
        a.combineLatest(b).subscribe(recorder)

        a.send(1)
        a.send(2)
        #expect(recorder.events(Self.pair) == [])
        b.send(10)
        a.send(3)
        b.send(20)
        #expect(recorder.events(Self.pair) == [.value([2, 10]), .value([3, 10]), .value([3, 20])])

        a.send(completion: .finished)
        #expect(recorder.events.count == 3)   // not finished: b is still going
        b.send(30)                              // combines with a's last value
        b.send(completion: .finished)
        #expect(recorder.events(Self.pair) == [
            .value([2, 10]), .value([3, 10]), .value([3, 20]), .value([3, 30]), .finished,
        ])
    }

    @Test func transformVariantPublishesTheTransformedCombination() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let recorder = TestRecorder<String, Never>(releasesSubscription: [])
        a.combineLatest(b) { "\($1)\($0)" }.subscribe(recorder)

        a.send(1)
        b.send("x")
        a.send(2)
        b.send("y")
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(recorder.events == [.value("x1"), .value("x2"), .value("y2"), .finished])
    }

    @Test func combineLatest3WithAndWithoutTransform() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let tuples = TestRecorder<(Int, Int, Int), Never>(releasesSubscription: [])
        let sums = TestRecorder<Int, Never>(releasesSubscription: [])
        a.combineLatest(b, c).subscribe(tuples)
        a.combineLatest(b, c) { $0 + $1 + $2 }.subscribe(sums)

        a.send(1)
        b.send(10)
        #expect(tuples.events(Self.triple) == [])
        c.send(100)
        b.send(20)
        a.send(2)
        c.send(200)
        for subject in [a, b] { subject.send(completion: .finished) }
        #expect(tuples.events.count == 4)
        c.send(completion: .finished)

        #expect(tuples.events(Self.triple) == [
            .value([1, 10, 100]), .value([1, 20, 100]), .value([2, 20, 100]), .value([2, 20, 200]), .finished,
        ])
        #expect(sums.events == [.value(111), .value(121), .value(122), .value(222), .finished])
    }

    @Test func synchronousUpstreamsCombineAndFinish() {
        let recorder = pairRecorder()
        Just(1).combineLatest(Just(2)).subscribe(recorder)
        #expect(recorder.events(Self.pair) == [.value([1, 2]), .finished])

        let waiting = pairRecorder(initial: .none)   // nothing happens before a request
        Just(1).combineLatest(Just(2)).subscribe(waiting)
        #expect(waiting.events(Self.pair) == [])
        waiting.request(.max(1))
        #expect(waiting.events(Self.pair) == [.value([1, 2]), .finished])
    }

    @Test func finishesWhenAllFinishEvenIfOneNeverEmitted() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = pairRecorder()
        a.combineLatest(b).subscribe(recorder)

        a.send(1)
        b.send(completion: .finished)
        a.send(2)
        #expect(recorder.events(Self.pair) == [])
        a.send(completion: .finished)
        #expect(recorder.events(Self.pair) == [.finished])
    }

    @Test func failureFromOneUpstreamFailsAtOnceAndNothingFollows() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<(Int, Int), TestError>(releasesSubscription: [])
        a.combineLatest(b).subscribe(recorder)

        a.send(1)
        b.send(2)
        b.send(completion: .failure(TestError(7)))
        a.send(3)
        a.send(completion: .finished)
        #expect(recorder.events(Self.pair) == [.value([1, 2]), .failure(TestError(7))])
    }

    @Test func failureCancelsTheOtherUpstreams() {
        let a = TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true)
        let b = TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true)
        let c = TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<(Int, Int, Int), TestError>(releasesSubscription: [])
        a.combineLatest(b, c).subscribe(recorder)

        b.send(completion: .failure(TestError(1)))
        #expect(recorder.events(Self.triple) == [.failure(TestError(1))])
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 0)
        #expect(c.cancelCount == 1)
        a.send(1)   // a careless upstream sends after cancel: ignored
        c.send(completion: .failure(TestError(2)))
        #expect(recorder.events(Self.triple) == [.failure(TestError(1))])
    }

    @Test func upstreamsAreAskedForUnlimitedValuesAtTheFirstRequest() {
        let a = TestPublisher<Int, Never>(releasesSubscriberOnCompletion: true)
        let b = TestPublisher<Int, Never>(releasesSubscriberOnCompletion: true)
        let recorder = pairRecorder(initial: .none)
        a.combineLatest(b).subscribe(recorder)

        #expect(a.requests == [])
        #expect(b.requests == [])
        recorder.request(.max(1))
        #expect(a.requests == [.unlimited])
        #expect(b.requests == [.unlimited])
        recorder.request(.max(1))
        #expect(a.requests == [.unlimited])
    }

    @Test func demandIsHonouredAndTheLatestCombinationWaitsForDemand() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = pairRecorder(initial: .max(1))
        a.combineLatest(b).subscribe(recorder)

        a.send(1)
        b.send(10)
        #expect(recorder.events(Self.pair) == [.value([1, 10])])
        a.send(2)
        a.send(3)
        #expect(recorder.events(Self.pair) == [.value([1, 10])])

        recorder.request(.max(1))                 // the newest combination, not a stale one
        #expect(recorder.events(Self.pair) == [.value([1, 10]), .value([3, 10])])
        b.send(20)
        #expect(recorder.events.count == 2)

        recorder.request(.max(2))                 // the held one, and one more to come
        #expect(recorder.events(Self.pair) == [.value([1, 10]), .value([3, 10]), .value([3, 20])])
        a.send(4)
        a.send(5)
        #expect(recorder.events(Self.pair) == [.value([1, 10]), .value([3, 10]), .value([3, 20]), .value([4, 20])])
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = pairRecorder(initial: .max(1))
        recorder.demandPerValue = .max(1)   // one more after each: always exactly one outstanding
        a.combineLatest(b).subscribe(recorder)

        a.send(1)
        b.send(1)
        a.send(2)
        b.send(2)
        #expect(recorder.values(Self.pair) == [[1, 1], [2, 1], [2, 2]])
        recorder.demandPerValue = .none
        a.send(3)
        a.send(4)
        #expect(recorder.values(Self.pair) == [[1, 1], [2, 1], [2, 2], [3, 2]])
    }

    @Test func demandReturnedFromReceiveReleasesACombinationHeldDuringThatCall() {
        // A value sent from inside the subscriber, which has no demand left, is held; the
        // demand that call returns releases it at once, after the call.
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = pairRecorder(initial: .max(1))
        recorder.demandPerValue = .max(1)
        recorder.onValue = { pair in
            if pair == (1, 1) { a.send(2) }
        }
        a.combineLatest(b).subscribe(recorder)

        a.send(1)
        b.send(1)
        #expect(recorder.values(Self.pair) == [[1, 1], [2, 1]])
    }

    @Test func aHeldCombinationIsDeliveredBeforeFinished() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = pairRecorder(initial: .max(1))
        a.combineLatest(b).subscribe(recorder)

        a.send(1)
        b.send(1)
        a.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(recorder.events(Self.pair) == [.value([1, 1])])
        recorder.request(.max(1))
        #expect(recorder.events(Self.pair) == [.value([1, 1]), .value([2, 1]), .finished])
    }

    @Test func cancelCancelsEveryUpstreamAndStopsDelivery() {
        let a = TestPublisher<Int, Never>(releasesSubscriberOnCompletion: true)
        let b = TestPublisher<Int, Never>(releasesSubscriberOnCompletion: true)
        let recorder = pairRecorder()
        a.combineLatest(b).subscribe(recorder)

        a.send(1)
        b.send(2)
        recorder.cancel()
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
        a.send(3)
        b.send(completion: .finished)
        a.send(completion: .finished)
        recorder.request(.max(1))
        #expect(recorder.events(Self.pair) == [.value([1, 2])])
    }

    @Test func reentrantSendsAreDeliveredAfterTheCurrentValueNotInsideIt() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = pairRecorder()
        var depth = 0
        var maxDepth = 0
        recorder.onValue = { pair in
            depth += 1
            maxDepth = max(maxDepth, depth)
            if pair == (1, 10) { b.send(20) }
            depth -= 1
        }
        a.combineLatest(b).subscribe(recorder)

        a.send(1)
        b.send(10)
        #expect(recorder.values(Self.pair) == [[1, 10], [1, 20]])
        #expect(maxDepth == 1)
    }

    @Test func releasesItsSubscriberAfterCompletionAndCancel() {
        weak var weakRecorder: Recorder?
        weak var weakSubscription: AnyObject?
        do {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let recorder = pairRecorder()
            weakRecorder = recorder
            a.combineLatest(b).subscribe(recorder)
            weakSubscription = recorder.subscription as AnyObject
            a.send(1)
            b.send(2)
            a.send(completion: .finished)
            b.send(completion: .finished)
            #expect(recorder.events(Self.pair) == [.value([1, 2]), .finished])
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)

        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        do {
            let recorder = pairRecorder()
            weakRecorder = recorder
            a.combineLatest(b).subscribe(recorder)
            weakSubscription = recorder.subscription as AnyObject
            a.send(1)
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)
    }

    @Test func aValueSentWhileTheSubscriberIsBusyOnAnotherThreadWaitsItsTurn() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let detector = OverlapDetector()
        let entered = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        var received: [[Int]] = []
        let cancellable = a.combineLatest(b).sink { pair in
            detector.watch {
                received.append([pair.0, pair.1])
                if pair == (1, 1) {
                    entered.signal()
                    _ = resume.wait(timeout: .now() + 10)
                }
            }
        }
        a.send(1)
        let done = DispatchGroup()
        DispatchQueue(label: "opsB.combineLatest.busy").async(group: done) { b.send(1) }
        #expect(entered.wait(timeout: .now() + 10) == .success)

        // The subscriber is busy on the other thread: these neither block nor call it now;
        // the busy thread delivers them, in order, once it is done.
        a.send(2)
        a.send(3)
        #expect(received == [[1, 1]])
        resume.signal()
        done.wait()
        #expect(received == [[1, 1], [2, 1], [3, 1]])
        #expect(detector.overlaps == 0)
        withExtendedLifetime(cancellable) {}
    }

    @Test func upstreamsOnTwoThreadsNeverCallTheSubscriberConcurrently() {
        let count = 20_000
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let detector = OverlapDetector()
        var received: [(Int, Int)] = []   // appended without a lock on purpose
        let cancellable = a.combineLatest(b).sink { pair in
            detector.watch { received.append(pair) }
        }
        a.send(-1)
        b.send(-1)
        runConcurrently([a, b].map { subject in
            { for value in 0..<count { subject.send(value) } }
        })

        #expect(detector.overlaps == 0)
        #expect(received.count == 2 * count + 1)
        #expect(received.last.map { [$0.0, $0.1] } == [count - 1, count - 1])
        // Each upstream's values appear in the order it sent them.
        #expect(zip(received, received.dropFirst()).allSatisfy { $0.0 <= $1.0 && $0.1 <= $1.1 })
        withExtendedLifetime(cancellable) {}
    }

    // MARK: combineLatest of four (CombineLatest4)

    private static func quadruple(_ tuple: (Int, Int, Int, Int)) -> [Int] { [tuple.0, tuple.1, tuple.2, tuple.3] }

    @Test func combineLatest4WithAndWithoutTransform() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let tuples = TestRecorder<(Int, Int, Int, Int), Never>(releasesSubscription: [])
        let sums = TestRecorder<Int, Never>(releasesSubscription: [])
        let combined: Publishers.CombineLatest4<
            PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>,
            PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>
        > = subjects[0].combineLatest(subjects[1], subjects[2], subjects[3])
        combined.subscribe(tuples)
        let mapped: Publishers.Map<Publishers.CombineLatest4<
            PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>,
            PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>
        >, Int> = subjects[0].combineLatest(subjects[1], subjects[2], subjects[3]) { $0 + $1 + $2 + $3 }
        mapped.subscribe(sums)

        subjects[0].send(1)
        subjects[1].send(10)
        subjects[2].send(100)
        #expect(tuples.events(Self.quadruple) == [])
        subjects[3].send(1000)
        subjects[1].send(20)
        for subject in subjects.dropLast() { subject.send(completion: .finished) }
        subjects[3].send(2000)
        #expect(tuples.events.count == 3)
        subjects[3].send(completion: .finished)

        #expect(tuples.events(Self.quadruple) == [
            .value([1, 10, 100, 1000]), .value([1, 20, 100, 1000]), .value([1, 20, 100, 2000]), .finished,
        ])
        #expect(sums.events == [.value(1111), .value(1121), .value(2121), .finished])
    }

    @Test func combineLatest4FailsAtOnceAndCancelsTheOthers() {
        let probes = (0..<4).map { _ in TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true) }
        let recorder = TestRecorder<(Int, Int, Int, Int), TestError>(releasesSubscription: [])
        Publishers.CombineLatest4(probes[0], probes[1], probes[2], probes[3]).subscribe(recorder)
        for (index, probe) in probes.enumerated() { probe.send(index) }
        probes[2].send(completion: .failure(.boom))
        #expect(recorder.events(Self.quadruple) == [.value([0, 1, 2, 3]), .failure(.boom)])
        #expect(probes.map(\.cancelCount) == [1, 1, 0, 1])
        probes[0].send(9)
        #expect(recorder.events.count == 2)
    }

    @Test func combineLatest4HoldsTheNewestCombinationUntilDemand() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = TestRecorder<(Int, Int, Int, Int), Never>(initialDemand: .max(1), releasesSubscription: [])
        subjects[0].combineLatest(subjects[1], subjects[2], subjects[3]).subscribe(recorder)
        for subject in subjects { subject.send(1) }
        subjects[0].send(2)
        subjects[3].send(3)
        #expect(recorder.events(Self.quadruple) == [.value([1, 1, 1, 1])])
        recorder.request(.max(1))
        #expect(recorder.events(Self.quadruple) == [.value([1, 1, 1, 1]), .value([2, 1, 1, 3])])
        recorder.cancel()
    }

    @Test func combineLatest4OnFourThreadsDeliversOneAtATimeAndEndsWithTheLastValues() {
        let count = 5_000
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let detector = OverlapDetector()
        var received: [[Int]] = []   // appended without a lock on purpose
        var completions = 0
        let cancellable = subjects[0].combineLatest(subjects[1], subjects[2], subjects[3]).sink(
            receiveCompletion: { _ in completions += 1 },
            receiveValue: { tuple in detector.watch { received.append(Self.quadruple(tuple)) } })
        for subject in subjects { subject.send(-1) }
        runConcurrently(subjects.map { subject in
            {
                for value in 0..<count { subject.send(value) }
                subject.send(completion: .finished)
            }
        })

        #expect(detector.overlaps == 0)
        #expect(completions == 1)
        #expect(received.count == 4 * count + 1)
        #expect(received.last == [count - 1, count - 1, count - 1, count - 1])
        #expect(zip(received, received.dropFirst()).allSatisfy { old, new in
            (0..<4).allSatisfy { old[$0] <= new[$0] }
        })
        withExtendedLifetime(cancellable) {}
    }
}
