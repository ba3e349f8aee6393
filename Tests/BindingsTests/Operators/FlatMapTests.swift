import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// The type name starts with "Operators" so that `swift test --filter Operators` selects it.
@Suite("Operators: flatMap")
struct OperatorsFlatMapTests {
    typealias Inner = TestPublisher<String, TestError>

    @Test func mergesTheInnersAndFinishesWhenTheOuterAndEveryInnerHaveFinished() {
        let outer = PassthroughSubject<Int, Never>()
        let inners = (0..<2).map { _ in PassthroughSubject<String, Never>() }
        let recorder = TestRecorder<String, Never>(releasesSubscription: [])
        outer.flatMap { inners[$0] }.subscribe(recorder)

        outer.send(0)
        inners[0].send("a0")
        outer.send(1)
        inners[1].send("b0")
        inners[0].send("a1")
        outer.send(completion: .finished)
        inners[0].send(completion: .finished)
        #expect(recorder.events == [.value("a0"), .value("b0"), .value("a1")])
        inners[1].send("b1")
        inners[1].send(completion: .finished)
        #expect(recorder.events == [.value("a0"), .value("b0"), .value("a1"), .value("b1"), .finished])
    }

    @Test func finishesWhenTheOuterFinishesWithoutAnyInner() {
        let outer = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<String, Never>(releasesSubscription: [])
        outer.flatMap { Just("\($0)") }.subscribe(recorder)
        outer.send(1)
        outer.send(completion: .finished)
        #expect(recorder.events == [.value("1"), .finished])

        let empty = TestRecorder<String, Never>(releasesSubscription: [])
        outer.flatMap { Just("\($0)") }.subscribe(empty)   // `outer` has finished already
        #expect(empty.events == [.finished])
    }

    @Test func maxPublishersLimitsTheInnersSubscribedAtOnce() {
        let outer = TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true)
        let inners = (0..<3).map { _ in Inner(releasesSubscriberOnCompletion: true) }
        var transformed: [Int] = []
        let recorder = TestRecorder<String, TestError>(releasesSubscription: [])
        outer.flatMap(maxPublishers: .max(2)) { index in
            transformed.append(index)
            return inners[index]
        }
        .subscribe(recorder)
        #expect(outer.requests == [.max(2)])

        outer.send(0)
        outer.send(1)
        #expect(transformed == [0, 1])
        #expect(inners.map(\.isSubscribed) == [true, true, false])
        inners[1].send("b")
        #expect(outer.requests == [.max(2)])   // a value does not free a slot
        inners[1].send(completion: .finished)
        #expect(outer.requests == [.max(2), .max(1)])
        outer.send(2)
        #expect(inners.map(\.isSubscribed) == [true, false, true])
        inners[2].send("c")
        inners[0].send("a")
        #expect(recorder.values == ["b", "c", "a"])
    }

    @Test func unlimitedMaxPublishersAsksTheOuterForEverythingOnce() {
        let outer = TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true)
        let inner = Inner(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<String, TestError>(releasesSubscription: [])
        outer.flatMap { _ in inner }.subscribe(recorder)
        #expect(outer.requests == [.unlimited])
        outer.send(0)
        inner.send(completion: .finished)
        #expect(outer.requests == [.unlimited])
        #expect(recorder.events == [])
    }

    @Test func innerFailureFailsAtOnceAndCancelsTheOuterAndTheOtherInners() {
        let outer = TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true)
        let inners = (0..<3).map { _ in Inner(releasesSubscriberOnCompletion: true) }
        let recorder = TestRecorder<String, TestError>(releasesSubscription: [])
        outer.flatMap { inners[$0] }.subscribe(recorder)

        for index in 0..<3 { outer.send(index) }
        inners[0].send("a")
        inners[1].send(completion: .failure(TestError(6)))
        #expect(outer.cancelCount == 1)
        #expect(inners.map(\.cancelCount) == [1, 0, 1])
        inners[2].send("c")                  // sent after cancel: ignored
        outer.send(completion: .finished)
        #expect(recorder.events == [.value("a"), .failure(TestError(6))])
    }

    @Test func outerFailureFailsAtOnceAndCancelsTheInners() {
        let outer = TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true)
        let inners = (0..<2).map { _ in Inner(releasesSubscriberOnCompletion: true) }
        let recorder = TestRecorder<String, TestError>(releasesSubscription: [])
        outer.flatMap { inners[$0] }.subscribe(recorder)

        outer.send(0)
        outer.send(1)
        outer.send(completion: .failure(TestError(8)))
        #expect(inners.map(\.cancelCount) == [1, 1])
        #expect(outer.cancelCount == 0)
        inners[0].send("a")
        #expect(recorder.events == [.failure(TestError(8))])
    }

    @Test func demandFollowsCombineOneValueRequestedPerInner() {
        let outer = PassthroughSubject<Int, TestError>()
        let inners = (0..<2).map { _ in Inner(releasesSubscriberOnCompletion: true) }
        let recorder = TestRecorder<String, TestError>(initialDemand: .max(1), releasesSubscription: [])
        outer.flatMap { inners[$0] }.subscribe(recorder)

        outer.send(0)
        outer.send(1)
        #expect(inners.map(\.requests) == [[.max(1)], [.max(1)]])
        #expect(inners[1].send("b1") == .max(1))
        #expect(inners[0].send("a1") == .none)   // waits for demand
        #expect(inners[1].send("b2") == .none)
        #expect(recorder.values == ["b1"])

        recorder.request(.max(1))
        #expect(recorder.values == ["b1", "a1"])
        #expect(inners[0].requests == [.max(1), .max(1)])
        outer.send(completion: .finished)
        inners[0].send(completion: .finished)
        inners[1].send(completion: .finished)
        #expect(recorder.events == [.value("b1"), .value("a1")])   // "b2" still waits

        recorder.request(.max(1))
        #expect(recorder.events == [.value("b1"), .value("a1"), .value("b2"), .finished])
    }

    @Test func cancelCancelsTheOuterAndEveryInner() {
        let outer = TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true)
        let inners = (0..<2).map { _ in Inner(releasesSubscriberOnCompletion: true) }
        var transformed = 0
        let recorder = TestRecorder<String, TestError>(releasesSubscription: [])
        outer.flatMap { index -> Inner in
            transformed += 1
            return inners[index]
        }
        .subscribe(recorder)

        outer.send(0)
        outer.send(1)
        inners[0].send("a")
        recorder.cancel()
        #expect(outer.cancelCount == 1)
        #expect(inners.map(\.cancelCount) == [1, 1])
        outer.send(0)                        // after cancel: no new inner
        inners[1].send("b")
        inners[0].send(completion: .finished)
        #expect(transformed == 2)
        #expect(recorder.events == [.value("a")])
    }

    @Test func releasesItsSubscriberAfterCompletionAndCancel() {
        weak var weakRecorder: TestRecorder<Int, Never>?
        weak var weakSubscription: AnyObject?
        let outer = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            outer.flatMap { _ in inner }.subscribe(recorder)
            weakSubscription = recorder.subscription as AnyObject
            outer.send(0)
            inner.send(1)
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)

        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            outer.flatMap { _ in inner }.subscribe(recorder)
            weakSubscription = recorder.subscription as AnyObject
            outer.send(0)
            outer.send(completion: .finished)
            inner.send(completion: .finished)
            #expect(recorder.events == [.finished])
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)
    }

    @Test func aValueSentWhileTheSubscriberIsBusyOnAnotherThreadWaitsItsTurn() {
        let outer = PassthroughSubject<Int, Never>()
        let inners = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
        let detector = OverlapDetector()
        let entered = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        var received: [Int] = []
        let cancellable = outer.flatMap { inners[$0] }.sink { value in
            detector.watch {
                received.append(value)
                if value == 1 {
                    entered.signal()
                    _ = resume.wait(timeout: .now() + 10)
                }
            }
        }
        outer.send(0)
        let done = DispatchGroup()
        DispatchQueue(label: "opsB.flatMap.busy").async(group: done) { inners[0].send(1) }
        #expect(entered.wait(timeout: .now() + 10) == .success)

        // The subscriber is busy on the other thread: a new inner and its values neither
        // block nor call it now; the busy thread delivers them once it is done.
        outer.send(1)
        inners[1].send(2)
        inners[1].send(3)
        #expect(received == [1])
        resume.signal()
        done.wait()
        #expect(received == [1, 2, 3])
        #expect(detector.overlaps == 0)
        withExtendedLifetime(cancellable) {}
    }

    @Test func innersOnTwoThreadsNeverCallTheSubscriberConcurrently() {
        let count = 20_000
        let outer = PassthroughSubject<Int, Never>()
        let inners = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
        let detector = OverlapDetector()
        var received: [Int] = []   // appended without a lock on purpose
        var completions = 0
        let cancellable = outer.flatMap { inners[$0] }.sink(
            receiveCompletion: { _ in completions += 1 },
            receiveValue: { value in
                detector.watch { received.append(value) }
            })
        outer.send(0)
        outer.send(1)
        outer.send(completion: .finished)
        runConcurrently(inners.enumerated().map { index, inner in
            {
                for value in 0..<count { inner.send(index * count + value) }
                inner.send(completion: .finished)
            }
        })

        #expect(detector.overlaps == 0)
        #expect(completions == 1)
        #expect(received.filter { $0 < count } == Array(0..<count))
        #expect(received.filter { $0 >= count } == Array(count..<(2 * count)))
        withExtendedLifetime(cancellable) {}
    }

    // MARK: maxPublishers, exactly

    @Test func aCarelessOuterCannotSubscribeMoreThanMaxPublishersAtOnce() {
        let outer = TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true)
        let inners = (0..<4).map { _ in Inner(releasesSubscriberOnCompletion: true) }
        let recorder = TestRecorder<String, TestError>(releasesSubscription: [])
        outer.flatMap(maxPublishers: .max(2)) { inners[$0] }.subscribe(recorder)

        outer.send(0)
        outer.send(1)
        outer.send(2)   // not asked for: dropped, not subscribed
        #expect(inners.map(\.isSubscribed) == [true, true, false, false])
        inners[0].send(completion: .finished)
        #expect(outer.requests == [.max(2), .max(1)])
        outer.send(3)
        #expect(inners.map(\.isSubscribed) == [false, true, false, true])
        inners[3].send("d")
        #expect(recorder.values == ["d"])
        recorder.cancel()
    }

    @Test func aCarelessInnerFreesItsSlotOnceAndCannotSendAfterItsCompletion() {
        let outer = TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true)
        let inners = (0..<2).map { _ in Inner() }   // they keep calling after completing
        let recorder = TestRecorder<String, TestError>(releasesSubscription: [])
        outer.flatMap(maxPublishers: .max(1)) { inners[$0] }.subscribe(recorder)

        outer.send(0)
        inners[0].send("a")
        inners[0].send(completion: .finished)
        inners[0].send(completion: .finished)   // a second completion frees no second slot
        inners[0].send("late")                  // after its completion: dropped
        inners[0].send(completion: .failure(.boom))
        #expect(outer.requests == [.max(1), .max(1)])
        outer.send(1)
        outer.send(completion: .finished)
        #expect(recorder.events == [.value("a")])   // inner 1 is still going
        inners[1].send("b")
        inners[1].send(completion: .finished)
        #expect(recorder.events == [.value("a"), .value("b"), .finished])
    }

    @Test func maxPublishersHoldsWhileInnersCompleteOnOtherThreads() {
        let count = 2_000
        // Inners subscribed and not yet completed, counted on their way to the flatMap:
        // one is counted before the flatMap has it, and uncounted before it frees its slot.
        let inners = Locked((live: 0, peak: 0))
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        (0..<count).publisher
            .flatMap(maxPublishers: .max(3)) { value in
                Just(value)
                    .receive(on: DispatchQueue.global())
                    .handleEvents(
                        receiveSubscription: { _ in
                            inners.withLock {
                                $0.live += 1
                                $0.peak = max($0.peak, $0.live)
                            }
                        },
                        receiveCompletion: { _ in inners.withLock { $0.live -= 1 } })
            }
            .subscribe(recorder)
        #expect(recorder.wait(timeout: 60) { $0.last == .finished })
        #expect(recorder.values.sorted() == Array(0..<count))
        // Never more than three at once (how many overlapped depends on the scheduling).
        #expect((1...3).contains(inners.value.peak))
        #expect(recorder.violations == [])
    }

    @Test func manyInnersThatFinishAtOnceDoNotGrowTheStack() {
        let count = 20_000
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        (0..<count).publisher.flatMap(maxPublishers: .max(1)) { Just($0) }.subscribe(recorder)
        #expect(recorder.values == Array(0..<count))
        #expect(recorder.events.last == .finished)
    }
}
