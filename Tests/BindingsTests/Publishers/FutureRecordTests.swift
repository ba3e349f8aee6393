import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// Issue 13, item 1: `Future` and `Record`, with Combine's semantics.

@Suite("Publishers: Future")
struct FutureTests {
    @Test func runsItsClosureOnceAtOnceAndGivesEverySubscriberTheResult() {
        var runs = 0
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { promise in
            runs += 1
            fulfil = promise
        }
        #expect(runs == 1)
        let early = TestRecorder<Int, Never>(recordsSubscription: true)
        future.subscribe(early)
        #expect(early.events == [.subscription])
        fulfil?(.success(7))
        fulfil?(.success(8))   // only the first counts
        let late = TestRecorder<Int, Never>()
        future.subscribe(late)
        #expect(runs == 1)
        #expect(early.events == [.subscription, .value(7), .finished])
        #expect(late.events == [.value(7), .finished])
    }

    @Test func aValueWaitsForDemandAFailureDoesNot() {
        let succeeding = Future<Int, TestError> { $0(.success(1)) }
        let waiting = TestRecorder<Int, TestError>(initialDemand: .none)
        succeeding.subscribe(waiting)
        #expect(waiting.events == [])
        waiting.request(.max(1))
        #expect(waiting.events == [.value(1), .finished])

        let failing = Future<Int, TestError> { $0(.failure(.boom)) }
        let noDemand = TestRecorder<Int, TestError>(initialDemand: .none)
        failing.subscribe(noDemand)
        #expect(noDemand.events == [.failure(.boom)])
    }

    /// The result is kept with its types erased (see `FutureResult`): an optional output,
    /// `nil` included, and an existential failure come out as they went in.
    @Test func anOptionalOutputAndAnExistentialFailureArriveAsSent() {
        let none = TestRecorder<Int?, Never>()
        Future<Int?, Never> { $0(.success(nil)) }.subscribe(none)
        #expect(none.events == [.value(nil), .finished])
        let some = TestRecorder<Int?, Never>()
        Future<Int?, Never> { $0(.success(3)) }.subscribe(some)
        #expect(some.events == [.value(3), .finished])

        var received: [String] = []
        let failing = Future<Int, any Error> { $0(.failure(TestError.boom)) }
        let c = failing.sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { received.append("\(error)") }
            },
            receiveValue: { received.append("value \($0)") })
        #expect(received == ["\(TestError.boom)"])
        withExtendedLifetime(c) {}
    }

    @Test func aCancelledSubscriberGetsNothingAndIsReleased() {
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { fulfil = $0 }
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            future.subscribe(recorder)
            recorder.subscription?.cancel()
        }
        #expect(weakRecorder == nil)
        fulfil?(.success(1))
    }

    /// A subscriber that cancels from `receive(subscription:)` is not kept waiting for a
    /// result that may never come (it stayed in the future's list until the promise).
    @Test func aSubscriberThatCancelsOnItsSubscriptionIsNotKeptWaiting() {
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { fulfil = $0 }
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        recorder.onSubscription = { [unowned recorder] _ in recorder.cancel() }
        future.subscribe(recorder)
        #expect(recorder.weakSubscription == nil)
        fulfil?(.success(1))
        #expect(recorder.events == [.subscription])
    }

    /// The same with the cancel made on another thread: before the subscription attaches
    /// (every other round, the subscriber waits for it), or while it attaches. Whichever
    /// comes first, nothing is left waiting. (Under ThreadSanitizer in CI.)
    @Test func aCancelFromAnotherThreadLeavesNothingWaiting() {
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { fulfil = $0 }
        for round in 0..<200 {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none)
            let cancelled = DispatchSemaphore(value: 0)
            let cancelFirst = round.isMultiple(of: 2)
            recorder.onSubscription = { [unowned recorder] _ in
                DispatchQueue.global().async {
                    recorder.cancel()
                    cancelled.signal()
                }
                if cancelFirst { cancelled.wait() }
            }
            future.subscribe(recorder)
            if !cancelFirst { cancelled.wait() }
            #expect(recorder.weakSubscription == nil, "round \(round)")
        }
        fulfil?(.success(1))
    }

    /// A subscriber that cancels from `receive(_:)` gets no completion after the value,
    /// as with `Just` (issue: `.finished` followed the cancel).
    @Test func aSubscriberThatCancelsOnTheValueGetsNoCompletion() {
        for fulfilLater in [false, true] {
            var fulfil: Future<Int, Never>.Promise?
            let future = Future<Int, Never> { promise in
                if fulfilLater { fulfil = promise } else { promise(.success(1)) }
            }
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            recorder.onValue = { [unowned recorder] _ in recorder.subscription?.cancel() }
            future.subscribe(recorder)
            fulfil?(.success(1))
            #expect(recorder.events == [.value(1)])
        }
    }

    @Test func thePromiseMayBeCalledFromAnotherThread() async {
        let future = Future<Int, Never> { promise in
            DispatchQueue.global().async { promise(.success(42)) }
        }
        var received: [Int] = []
        for await value in future.values { received.append(value) }
        #expect(received == [42])
    }

    @Test func manySubscribersOnManyThreadsEachGetTheResultOnce() {
        // Under ThreadSanitizer in CI: the promise races with the subscriptions.
        let fulfil = Locked<Future<Int, Never>.Promise?>(nil)
        let future = Future<Int, Never> { promise in fulfil.value = promise }
        let received = LockedLog<Int>()
        let cancellables = Locked<[AnyCancellable]>([])
        let shared = UncheckedBox(future)   // subscribing is thread-safe: what is under test
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            if index == 8 { fulfil.value?(.success(5)) }
            let c = shared.value.sink { received.append($0) }
            cancellables.withLock { $0.append(c) }
        }
        #expect(received.items == Array(repeating: 5, count: 16))
    }
}

/// A failure that can be encoded, for a recording's completion.
private struct RecordedError: Error, Codable, Equatable {
    let code: Int
}

@Suite("Publishers: Record")
struct RecordTests {
    @Test func replaysItsRecordingToEachSubscriberAsDemandAllows() {
        let record = Record<Int, TestError>(output: [1, 2, 3], completion: .failure(.boom))
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(2))
        record.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .failure(.boom)])
        let second = TestRecorder<Int, TestError>()
        record.subscribe(second)
        #expect(second.events == [.value(1), .value(2), .value(3), .failure(.boom)])
    }

    @Test func recordsWhatItsClosureReceives() {
        let record = Record<String, Never> { recording in
            recording.receive("a")
            recording.receive("b")
            recording.receive(completion: .finished)
        }
        #expect(record.recording.output == ["a", "b"])
        let recorder = TestRecorder<String, Never>()
        record.subscribe(recorder)
        #expect(recorder.events == [.value("a"), .value("b"), .finished])
    }

    @Test func anEmptyRecordingCompletesAtOnceAndCancelStopsTheRest() {
        let empty = Record<Int, Never>(output: [], completion: .finished)
        let none = TestRecorder<Int, Never>(initialDemand: .none)
        empty.subscribe(none)
        #expect(none.events == [.finished])

        let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [])
        record.subscribe(recorder)
        recorder.subscription?.cancel()
        recorder.subscription?.request(.max(5))
        #expect(recorder.events == [.value(1)])
    }

    @Test func roundTripsThroughJSON() throws {
        let record = Record<Int, RecordedError>(output: [4, 5], completion: .failure(RecordedError(code: 3)))
        let decoded = try JSONDecoder().decode(Record<Int, RecordedError>.self, from: JSONEncoder().encode(record))
        #expect(decoded.recording.output == [4, 5])
        let recorder = TestRecorder<Int, RecordedError>()
        decoded.subscribe(recorder)
        #expect(recorder.events == [.value(4), .value(5), .failure(RecordedError(code: 3))])
    }

    @Test func aValueAfterTheCompletionStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, Never>.Recording()
            recording.receive(completion: .finished)
            recording.receive(1)
        }
        #expect(standardError(of: result).contains("received a value after its completion; record the values first"))
    }

    @Test func aSecondCompletionStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, Never>.Recording()
            recording.receive(completion: .finished)
            recording.receive(completion: .finished)
        }
        #expect(standardError(of: result).contains("received a second completion; record one completion, last"))
    }
}
