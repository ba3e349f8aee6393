import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// The type name starts with "Operators" so that `swift test --filter Operators` selects it.
@Suite("Operators: switchToLatest")
struct OperatorsSwitchToLatestTests {
    typealias Inner = TestPublisher<Int, TestError>

    @Test func deliversOnlyTheLatestInnerAndCancelsTheReplacedOne() {
        let outer = PassthroughSubject<Inner, TestError>()
        let first = Inner(releasesSubscriberOnCompletion: true)
        let second = Inner(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        outer.switchToLatest().subscribe(recorder)

        outer.send(first)
        first.send(1)
        outer.send(second)
        #expect(first.cancelCount == 1)
        first.send(2)                        // sent after its replacement: dropped
        second.send(3)
        first.send(completion: .finished)    // the replaced inner's completion is ignored too
        #expect(recorder.events == [.value(1), .value(3)])
        #expect(second.cancelCount == 0)
    }

    @Test func withSubjectsOnlyTheNewestInnerIsHeard() {
        let outer = PassthroughSubject<PassthroughSubject<String, Never>, Never>()
        let first = PassthroughSubject<String, Never>()
        let second = PassthroughSubject<String, Never>()
        let recorder = TestRecorder<String, Never>(releasesSubscription: [])
        outer.switchToLatest().subscribe(recorder)

        first.send("lost")                   // not subscribed yet
        outer.send(first)
        first.send("a")
        outer.send(second)
        first.send("b")
        second.send("c")
        outer.send(first)                    // switching back re-subscribes
        second.send("d")
        first.send("e")
        #expect(recorder.values == ["a", "c", "e"])
    }

    @Test func synchronousInnersAreDeliveredWithinTheirDemand() {
        let outer = PassthroughSubject<Just<Int>, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(2), releasesSubscription: [])
        outer.switchToLatest().subscribe(recorder)
        outer.send(Just(10))
        outer.send(Just(20))
        outer.send(Just(30))                 // no demand left: it waits for some
        outer.send(completion: .finished)
        #expect(recorder.events == [.value(10), .value(20)])
        recorder.request(.max(1))            // the current inner, Just(30), delivers now
        #expect(recorder.events == [.value(10), .value(20), .value(30), .finished])
    }

    @Test func finishesWhenTheOuterAndTheCurrentInnerHaveFinished() {
        // The outer first.
        do {
            let outer = PassthroughSubject<Inner, TestError>()
            let inner = Inner(releasesSubscriberOnCompletion: true)
            let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
            outer.switchToLatest().subscribe(recorder)
            outer.send(inner)
            outer.send(completion: .finished)
            inner.send(1)
            #expect(recorder.events == [.value(1)])
            inner.send(completion: .finished)
            #expect(recorder.events == [.value(1), .finished])
        }
        // The inner first.
        do {
            let outer = PassthroughSubject<Inner, TestError>()
            let inner = Inner(releasesSubscriberOnCompletion: true)
            let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
            outer.switchToLatest().subscribe(recorder)
            outer.send(inner)
            inner.send(completion: .finished)
            #expect(recorder.events == [])
            outer.send(completion: .finished)
            #expect(recorder.events == [.finished])
        }
        // No inner at all.
        do {
            let outer = PassthroughSubject<Inner, TestError>()
            let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
            outer.switchToLatest().subscribe(recorder)
            outer.send(completion: .finished)
            #expect(recorder.events == [.finished])
        }
        // A replaced inner finishing does not count.
        do {
            let outer = PassthroughSubject<Inner, TestError>()
            let first = Inner(releasesSubscriberOnCompletion: true)
            let second = Inner(releasesSubscriberOnCompletion: true)
            let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
            outer.switchToLatest().subscribe(recorder)
            outer.send(first)
            outer.send(second)
            outer.send(completion: .finished)
            first.send(completion: .finished)
            #expect(recorder.events == [])
            second.send(completion: .finished)
            #expect(recorder.events == [.finished])
        }
    }

    @Test func innerFailureFailsAtOnceAndCancelsTheOuter() {
        let outer = TestPublisher<Inner, TestError>(releasesSubscriberOnCompletion: true)
        let inner = Inner(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        outer.switchToLatest().subscribe(recorder)

        outer.send(inner)
        inner.send(1)
        inner.send(completion: .failure(TestError(4)))
        #expect(outer.cancelCount == 1)
        outer.send(Inner(releasesSubscriberOnCompletion: true))                  // sent after cancel: ignored
        outer.send(completion: .finished)
        #expect(recorder.events == [.value(1), .failure(TestError(4))])
    }

    @Test func outerFailureFailsAtOnceAndCancelsTheInner() {
        let outer = TestPublisher<Inner, TestError>(releasesSubscriberOnCompletion: true)
        let inner = Inner(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        outer.switchToLatest().subscribe(recorder)

        outer.send(inner)
        outer.send(completion: .failure(TestError(5)))
        #expect(inner.cancelCount == 1)
        inner.send(1)
        inner.send(completion: .finished)
        #expect(recorder.events == [.failure(TestError(5))])
    }

    @Test func demandGoesToTheCurrentInnerAndWhatIsLeftToTheNextOne() {
        let outer = TestPublisher<Inner, TestError>(releasesSubscriberOnCompletion: true)
        let first = Inner(releasesSubscriberOnCompletion: true)
        let second = Inner(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(2), releasesSubscription: [])
        outer.switchToLatest().subscribe(recorder)
        #expect(outer.requests == [.unlimited])

        outer.send(first)
        #expect(first.requests == [.max(2)])
        first.send(1)
        outer.send(second)
        #expect(second.requests == [.max(1)])
        second.send(2)
        second.send(3)                       // beyond the demand: dropped
        #expect(recorder.events == [.value(1), .value(2)])

        recorder.request(.max(1))
        #expect(second.requests == [.max(1), .max(1)])
        second.send(4)
        #expect(recorder.events == [.value(1), .value(2), .value(4)])
    }

    @Test func demandReturnedFromReceiveGoesToTheCurrentInner() {
        let outer = PassthroughSubject<Inner, TestError>()
        let inner = Inner(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(1), releasesSubscription: [])
        outer.switchToLatest().subscribe(recorder)
        outer.send(inner)
        inner.send(1)
        inner.send(2)
        #expect(inner.requests == [.max(1), .max(1), .max(1)])
        #expect(recorder.values == [1, 2])
    }

    @Test func cancelCancelsTheOuterAndTheCurrentInner() {
        let outer = TestPublisher<Inner, TestError>(releasesSubscriberOnCompletion: true)
        let inner = Inner(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        outer.switchToLatest().subscribe(recorder)

        outer.send(inner)
        inner.send(1)
        recorder.cancel()
        #expect(outer.cancelCount == 1)
        #expect(inner.cancelCount == 1)
        inner.send(2)
        outer.send(completion: .finished)
        inner.send(completion: .finished)
        #expect(recorder.events == [.value(1)])
    }

    @Test func neverFailingOuterOfFailableInners() {
        let outer = PassthroughSubject<Inner, Never>()
        let inner = Inner(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        let switched: Publishers.SwitchToLatest<Inner, Publishers.SetFailureType<PassthroughSubject<Inner, Never>, TestError>> =
            outer.switchToLatest()
        switched.subscribe(recorder)

        outer.send(inner)
        inner.send(1)
        outer.send(completion: .finished)
        inner.send(completion: .failure(TestError(9)))
        #expect(recorder.events == [.value(1), .failure(TestError(9))])
    }

    @Test func neverFailingOuterOfNeverFailingInners() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inner = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = outer.switchToLatest().sink { received.append($0) }
        outer.send(inner)
        inner.send(1)
        #expect(received == [1])
        withExtendedLifetime(cancellable) {}
    }

    @Test func releasesItsSubscriberAfterCompletionAndCancel() {
        weak var weakRecorder: TestRecorder<Int, Never>?
        weak var weakSubscription: AnyObject?
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inner = PassthroughSubject<Int, Never>()
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            outer.switchToLatest().subscribe(recorder)
            weakSubscription = recorder.subscription as AnyObject
            outer.send(inner)
            inner.send(1)
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)

        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            outer.switchToLatest().subscribe(recorder)
            weakSubscription = recorder.subscription as AnyObject
            outer.send(inner)
            outer.send(completion: .finished)
            inner.send(completion: .finished)
            #expect(recorder.events == [.finished])
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)
    }

    @Test func aNewInnerSendingWhileTheSubscriberIsBusyOnAnotherThreadWaitsItsTurn() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let detector = OverlapDetector()
        let entered = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        var received: [Int] = []
        let cancellable = outer.switchToLatest().sink { value in
            detector.watch {
                received.append(value)
                if value == 1 {
                    entered.signal()
                    _ = resume.wait(timeout: .now() + 10)
                }
            }
        }
        outer.send(first)
        let done = DispatchGroup()
        DispatchQueue(label: "opsB.switch.busy").async(group: done) { first.send(1) }
        #expect(entered.wait(timeout: .now() + 10) == .success)

        // The subscriber is busy with 1 on the other thread: this neither blocks nor
        // calls it now; the busy thread delivers 2 once it is done with 1.
        outer.send(second)
        second.send(2)
        #expect(received == [1])
        resume.signal()
        done.wait()
        #expect(received == [1, 2])
        #expect(detector.overlaps == 0)
        withExtendedLifetime(cancellable) {}
    }

    @Test func innersOnOtherThreadsNeverCallTheSubscriberConcurrently() {
        let count = 20_000
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inners = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
        let detector = OverlapDetector()
        var received: [Int] = []   // appended without a lock on purpose
        let cancellable = outer.switchToLatest().sink { value in
            // A wide window: two deliveries can only overlap around a switch.
            detector.watch(spins: 5_000) { received.append(value) }
        }
        let sendersDone = Counter()
        let senders: [@Sendable () -> Void] = inners.enumerated().map { index, inner in
            {
                for value in 0..<count { inner.send(index * count + value) }
                sendersDone.increment()
            }
        }
        // The third thread switches back and forth as long as the inners send.
        let switcher: @Sendable () -> Void = {
            var round = 0
            while sendersDone.value < 2 {
                outer.send(inners[round % 2])
                round += 1
            }
        }
        runConcurrently(senders + [switcher])

        #expect(detector.overlaps == 0)
        #expect(received.filter { $0 < count } == received.filter { $0 < count }.sorted())
        #expect(received.filter { $0 >= count } == received.filter { $0 >= count }.sorted())
        withExtendedLifetime(cancellable) {}
    }
}
