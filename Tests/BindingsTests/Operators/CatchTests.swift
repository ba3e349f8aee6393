import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// The type name starts with "Operators" so that `swift test --filter Operators` selects it.
@Suite("Operators: catch and tryCatch")
struct OperatorsCatchTests {
    /// A failure of another type than the upstream's, to see `catch` change it.
    enum OtherError: Error, Equatable { case replaced }

    @Test func passesValuesAndFinishedThroughWithoutCallingTheHandler() {
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        var handled = 0
        let caught: Publishers.Catch<PassthroughSubject<Int, TestError>, Just<Int>> = upstream.catch { _ in
            handled += 1
            return Just(-1)
        }
        caught.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(handled == 0)
    }

    @Test func onFailureContinuesWithTheHandlersPublisher() {
        let upstream = PassthroughSubject<Int, TestError>()
        let replacement = PassthroughSubject<Int, OtherError>()
        let recorder = TestRecorder<Int, OtherError>(releasesSubscription: [])
        var errors: [TestError] = []
        upstream.catch { error in
            errors.append(error)
            return replacement
        }.subscribe(recorder)

        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        upstream.send(99)   // after its failure: dropped
        replacement.send(2)
        replacement.send(completion: .failure(.replaced))
        replacement.send(3)
        #expect(errors == [.boom])
        #expect(recorder.events == [.value(1), .value(2), .failure(.replaced)])
        #expect(recorder.violations == [])
    }

    @Test func combinesExampleAJustAfterTheFailure() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        Fail<Int, TestError>(error: .boom).catch { _ in Just(-1) }.subscribe(recorder)
        #expect(recorder.events == [.value(-1), .finished])

        let prefixed = TestRecorder<Int, Never>(releasesSubscription: [])
        [5, 4].publisher.setFailureType(to: TestError.self).append(Fail(error: .boom))
            .catch { _ in [0, 0].publisher }
            .subscribe(prefixed)
        #expect(prefixed.events == [.value(5), .value(4), .value(0), .value(0), .finished])
    }

    @Test func theReplacementIsAskedForTheOutstandingDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(3), releasesSubscription: [])
        upstream.catch { _ in replacement }.subscribe(recorder)
        #expect(upstream.requests == [.max(3)])

        upstream.send(1)
        recorder.request(.max(2))
        #expect(upstream.requests == [.max(3), .max(2)])
        upstream.send(completion: .failure(.boom))
        #expect(replacement.requests == [.max(4)])   // 3 + 2 asked, 1 received
        recorder.request(.max(1))
        #expect(replacement.requests == [.max(4), .max(1)])
        #expect(upstream.requests == [.max(3), .max(2)])
        recorder.cancel()
    }

    @Test func nothingIsDeliveredBeyondTheDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(2), releasesSubscription: [])
        upstream.catch { _ in replacement }.subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        replacement.send(2)
        replacement.send(3)   // beyond the demand: dropped
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        replacement.send(4)
        #expect(recorder.values == [1, 2, 4])
        #expect(recorder.violations == [])
        recorder.cancel()
    }

    @Test func demandReturnedFromReceiveIsAddedAndReturnedUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(1), releasesSubscription: [])
        upstream.catch { _ in replacement }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        upstream.send(completion: .failure(.boom))
        #expect(replacement.requests == [.max(1)])
        #expect(replacement.send(2) == .max(1))
        #expect(recorder.values == [1, 2])
        recorder.cancel()
    }

    @Test func cancelBeforeAndAfterTheFailureCancelsTheCurrentPublisher() {
        let upstream = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        upstream.catch { _ in replacement }.subscribe(recorder)
        upstream.send(completion: .failure(.boom))
        recorder.cancel()
        #expect(upstream.cancelCount == 0)
        #expect(replacement.cancelCount == 1)
        replacement.send(1)
        replacement.send(completion: .finished)
        #expect(recorder.events == [])

        let other = TestPublisher<Int, TestError>()
        var handled = false
        let early = TestRecorder<Int, TestError>(releasesSubscription: [])
        other.catch { _ in
            handled = true
            return replacement
        }.subscribe(early)
        early.cancel()
        #expect(other.cancelCount == 1)
        other.send(completion: .failure(.boom))   // after the cancel: the handler is not called
        #expect(!handled)
        #expect(early.events == [])
    }

    @Test func aCancelWhileTheHandlerRunsSubscribesNoReplacement() {
        let upstream = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        upstream.catch { _ in
            recorder.cancel()
            return replacement
        }.subscribe(recorder)
        upstream.send(completion: .failure(.boom))
        #expect(!replacement.isSubscribed)
        #expect(recorder.events == [])
    }

    @Test func reentrantSendsAreDeliveredInOrder() {
        let upstream = PassthroughSubject<Int, TestError>()
        let replacement = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        recorder.onValue = { value in
            if value == 1 { upstream.send(2) }
            if value == 2 { upstream.send(completion: .failure(.boom)) }
            if value == 10 { replacement.send(11) }
        }
        upstream.catch { _ in replacement }.subscribe(recorder)
        upstream.send(1)
        replacement.send(10)
        #expect(recorder.values == [1, 2, 10, 11])
        recorder.onValue = nil   // the hook holds the subjects, which hold the recorder
        recorder.cancel()
    }

    @Test func tryCatchReplacesOrFailsWithTheThrownError() {
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, any Error>(releasesSubscription: [])
        let caught: Publishers.TryCatch<PassthroughSubject<Int, TestError>, Just<Int>> = upstream.tryCatch { error in
            if error == .boom { throw OtherError.replaced }
            return Just(0)
        }
        caught.subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(recorder.values == [1])
        #expect(recorder.events.count == 2)
        if case .failure(let error) = recorder.events.last {
            #expect(error as? OtherError == .replaced)
        } else {
            Issue.record("expected the thrown error, got \(recorder.events)")
        }

        let replaced = TestRecorder<Int, any Error>(releasesSubscription: [])
        Fail<Int, TestError>(error: .other).tryCatch { _ in Just(0) }.subscribe(replaced)
        #expect(replaced.values == [0])
        #expect("\(replaced.events.last!)" == "finished")
    }

    @Test func tryCatchErasesTheReplacementsFailure() {
        let replacement = PassthroughSubject<Int, OtherError>()
        let recorder = TestRecorder<Int, any Error>(releasesSubscription: [])
        Fail<Int, TestError>(error: .boom).tryCatch { _ in replacement }.subscribe(recorder)
        replacement.send(1)
        replacement.send(completion: .failure(.replaced))
        #expect(recorder.values == [1])
        if case .failure(let error) = recorder.events.last {
            #expect(error as? OtherError == .replaced)
        } else {
            Issue.record("expected the replacement's failure, got \(recorder.events)")
        }
    }

    @Test func releasesItsSubscriberAndHandlerAtCompletionAndCancel() {
        weak var weakRecorder: TestRecorder<Int, Never>?
        let canaries = LiveCounter()
        let upstream = PassthroughSubject<Int, TestError>()
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            let canary = Canary(canaries)
            upstream.catch { _ in
                canary.touch()
                return Just(0)
            }.subscribe(recorder)
            upstream.send(completion: .failure(.boom))
            #expect(recorder.events == [.value(0), .finished])
        }
        #expect(weakRecorder == nil)
        #expect(canaries.live == 0)

        let again = PassthroughSubject<Int, TestError>()
        let replacement = PassthroughSubject<Int, Never>()
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            let canary = Canary(canaries)
            again.catch { _ in
                canary.touch()
                return replacement
            }.subscribe(recorder)
            again.send(completion: .failure(.boom))   // the replacement never ends
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
        #expect(canaries.live == 0)
    }

    @Test func describesItselfAsCombinesCatch() {
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        upstream.catch { _ in Just(0) }.subscribe(recorder)
        #expect(recorder.subscription.map { String(describing: $0) } == "Catch")
        let tried = TestRecorder<Int, any Error>(releasesSubscription: [])
        upstream.tryCatch { _ in Just(0) }.subscribe(tried)
        #expect(tried.subscription.map { String(describing: $0) } == "TryCatch")
        recorder.cancel()
        tried.cancel()
    }

    @Test func aReplacementOnAnotherThreadIsDeliveredOneAtATime() {
        let count = 5_000
        let upstream = PassthroughSubject<Int, TestError>()
        let replacement = PassthroughSubject<Int, TestError>()
        let detector = OverlapDetector()
        var received: [Int] = []   // appended without a lock on purpose
        let cancellable = upstream.catch { _ in replacement }.sink(
            receiveCompletion: { _ in }, receiveValue: { value in detector.watch { received.append(value) } })
        runConcurrently([
            {
                for value in 0..<count { upstream.send(value) }
                upstream.send(completion: .failure(.boom))
            },
            {
                // Before the failure, the replacement has no subscriber: these are lost.
                for value in count..<(2 * count) { replacement.send(value) }
            },
        ])
        for value in (2 * count)..<(3 * count) { replacement.send(value) }
        #expect(detector.overlaps == 0)
        #expect(Array(received.prefix(count)) == Array(0..<count))
        #expect(received.suffix(count) == ArraySlice((2 * count)..<(3 * count)))
        withExtendedLifetime(cancellable) {}
    }
}
