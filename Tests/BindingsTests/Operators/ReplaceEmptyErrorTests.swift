import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: replaceEmpty(with:), replaceError(with:)")
struct OperatorsReplaceEmptyErrorTests {
    @Test func replaceEmptyPublishesTheReplacementForAnEmptyStream() {
        let recorder = TestRecorder<Int, Never>()
        Empty<Int, Never>().replaceEmpty(with: 7).subscribe(recorder)
        #expect(recorder.events == [.value(7), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func replaceEmptyPassesValuesAndDemandThrough() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.replaceEmpty(with: 7).subscribe(recorder)
        #expect(upstream.requests == [.max(2)])
        #expect(upstream.send(1) == .max(1))
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(1), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func replaceEmptyWaitsForDemandBeforeTheReplacement() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        subject.replaceEmpty(with: 7).subscribe(recorder)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(7), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func replaceEmptyForwardsAFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none)
        subject.replaceEmpty(with: 7).subscribe(recorder)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom)])
    }

    @Test func replaceEmptyCancelStopsEverything() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        upstream.replaceEmpty(with: 7).subscribe(recorder)
        recorder.subscription?.cancel()
        upstream.send(1)
        upstream.send(completion: .finished)
        recorder.subscription?.request(.max(1))
        #expect(recorder.events.isEmpty)
        #expect(upstream.cancelCount == 1)
    }

    @Test func replaceErrorReplacesAFailureWithAValueAndFinishes() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, Never>()
        subject.replaceError(with: 0).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1), .value(0), .finished])
        #expect(recorder.violations.isEmpty)

        let finishing = TestRecorder<Int, Never>()
        [1, 2].publisher.setFailureType(to: TestError.self).replaceError(with: 0).subscribe(finishing)
        #expect(finishing.events == [.value(1), .value(2), .finished])
    }

    @Test func replaceErrorHoldsTheReplacementUntilThereIsDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1))
        upstream.replaceError(with: 0).subscribe(recorder)
        upstream.send(1)   // uses up the demand
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(0), .finished])
        #expect(upstream.requests == [.max(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func replaceErrorCountsTheDemandReturnedFromValues() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.replaceError(with: 0).subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1), .value(0), .finished])
    }

    @Test func aFailureFromASubscriptionThatFailsAtOnceIsReplacedOnRequest() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none)
        Fail<Int, TestError>(error: .boom).replaceError(with: 5).subscribe(recorder)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(5), .finished])
    }

    @Test func replaceErrorCancelStopsEverything() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, Never>()
        upstream.replaceError(with: 0).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        upstream.send(2)
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1)])
        #expect(upstream.cancelCount == 1)
    }

    @Test func aCancelWhileReceivingTheReplacementSendsNoCompletion() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        recorder.onValue = { [unowned recorder] _ in recorder.subscription?.cancel() }
        Fail<Int, TestError>(error: .boom).replaceError(with: 5).subscribe(recorder)
        #expect(recorder.events == [.value(5)])
        let empty = TestRecorder<Int, Never>(releasesSubscription: [])
        empty.onValue = { [unowned empty] _ in empty.subscription?.cancel() }
        Empty<Int, Never>().replaceEmpty(with: 5).subscribe(empty)
        #expect(empty.events == [.value(5)])
    }

    @Test func subscriptionsAreNamedAsCombineNamesThem() {
        let subject = PassthroughSubject<Int, TestError>()
        #expect(subscriptionName(of: subject.replaceEmpty(with: 0)) == "ReplaceEmpty")
        #expect(subscriptionName(of: subject.replaceError(with: 0)) == "ReplaceError")
    }
}
