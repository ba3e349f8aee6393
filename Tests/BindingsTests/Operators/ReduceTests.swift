import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: reduce, tryReduce, count, collect()")
struct OperatorsReduceTests {
    @Test func reducePublishesTheResultAtTheEnd() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>()
        subject.reduce(10, +).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(13), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func anEmptyUpstreamGivesTheInitialResult() {
        let recorder = TestRecorder<[Int], Never>()
        Empty<Int, Never>().reduce([0]) { $0 + [$1] }.subscribe(recorder)
        #expect(recorder.events == [.value([0]), .finished])
    }

    @Test func asksUpstreamForEverythingAndHoldsTheResultUntilRequested() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        upstream.reduce(0, +).subscribe(recorder)
        #expect(upstream.log == [.subscribed, .request(.unlimited)])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(3), .finished])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(3), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func aRequestBeforeTheEndDeliversAtTheEnd() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1))
        subject.count().subscribe(recorder)
        subject.send(5)
        subject.send(6)
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(2), .finished])
    }

    @Test func upstreamFailureGoesDownAtOnceWithoutDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none)
        subject.reduce(0, +).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom)])
        recorder.request(.max(1))
        #expect(recorder.events == [.failure(.boom)])
    }

    @Test func tryReduceFailsWithTheThrownErrorAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, any Error>(initialDemand: .none)
        upstream.tryReduce(0) { total, value in
            if value < 0 { throw TestError.boom }
            return total + value
        }
        .subscribe(recorder)
        upstream.send(1)
        upstream.send(-1)
        #expect(recorder.testErrorEvents == [.failure(.boom)])
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.testErrorEvents == [.failure(.boom)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func tryReduceWithoutAnErrorBehavesAsReduce() {
        let recorder = TestRecorder<Int, any Error>()
        AnyPublisher([1, 2, 3].publisher).tryReduce(0, +).subscribe(recorder)
        #expect(recorder.testErrorEvents == [.value(6), .finished])

        let failing = PassthroughSubject<Int, TestError>()
        let failed = TestRecorder<Int, any Error>()
        failing.tryReduce(0, +).subscribe(failed)
        failing.send(completion: .failure(.other))
        #expect(failed.testErrorEvents == [.failure(.other)])
    }

    @Test func countCountsAndGivesZeroForAnEmptyUpstream() {
        let subject = PassthroughSubject<String, Never>()
        let recorder = TestRecorder<Int, Never>()
        subject.count().subscribe(recorder)
        subject.send("a")
        subject.send("b")
        subject.send("c")
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(3), .finished])

        let empty = TestRecorder<Int, Never>()
        Empty<String, Never>().count().subscribe(empty)
        #expect(empty.events == [.value(0), .finished])
    }

    @Test func collectGathersEverythingInOneArray() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<[Int], Never>(initialDemand: .none)
        subject.collect().subscribe(recorder)
        for value in 1...4 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value([1, 2, 3, 4]), .finished])

        let empty = TestRecorder<[Int], Never>()
        Empty<Int, Never>().collect().subscribe(empty)
        #expect(empty.events == [.value([]), .finished])

        let failing = PassthroughSubject<Int, TestError>()
        let failed = TestRecorder<[Int], TestError>()
        failing.collect().subscribe(failed)
        failing.send(1)
        failing.send(completion: .failure(.boom))
        #expect(failed.events == [.failure(.boom)])
    }

    @Test func cancelBeforeTheEndCancelsUpstreamAndDeliversNothing() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>()
        upstream.reduce(0, +).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
    }

    @Test func cancelWhileTheResultWaitsDropsIt() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: [])
        subject.collect().map(\.count).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        recorder.subscription?.cancel()
        recorder.subscription?.request(.max(1))
        #expect(recorder.events.isEmpty)
    }

    @Test func aCancelWhileReceivingTheResultSendsNoCompletion() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        recorder.onValue = { [unowned recorder] _ in recorder.subscription?.cancel() }
        AnyPublisher([1, 2].publisher).reduce(0, +).subscribe(recorder)
        #expect(recorder.events == [.value(3)])
    }

    @Test func theResultIsComputedAfreshForEachSubscription() {
        let publisher = AnyPublisher([1, 2, 3].publisher).reduce(0, +)
        let first = TestRecorder<Int, Never>()
        let second = TestRecorder<Int, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.events == [.value(6), .finished])
        #expect(second.events == [.value(6), .finished])
    }

    @Test func subscriptionsAreNamedAsCombineNamesThem() {
        let subject = PassthroughSubject<Int, Never>()
        #expect(subscriptionName(of: subject.reduce(0, +)) == "Reduce")
        #expect(subscriptionName(of: subject.tryReduce(0, +)) == "TryReduce")
        #expect(subscriptionName(of: subject.count()) == "Count")
        #expect(subscriptionName(of: subject.collect()) == "Collect")
    }
}

/// The description of the subscription that `publisher` gives its subscriber (which is
/// cancelled right after).
func subscriptionName<P: Publisher>(of publisher: P) -> String? {
    let recorder = TestRecorder<P.Output, P.Failure>(initialDemand: .none)
    publisher.subscribe(recorder)
    defer { recorder.cancel() }
    return recorder.subscription.map { String(describing: $0) }
}
