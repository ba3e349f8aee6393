import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: collect(_ count:)")
struct OperatorsCollectByCountTests {
    @Test func publishesFullArraysThenTheRest() {
        let recorder = TestRecorder<[Int], Never>()
        (0...10).publisher.collect(5).subscribe(recorder)
        #expect(recorder.events == [.value([0, 1, 2, 3, 4]), .value([5, 6, 7, 8, 9]), .value([10]), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func anExactMultipleLeavesNoShortArray() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<[Int], Never>()
        subject.collect(2).subscribe(recorder)
        for value in 1...4 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(recorder.events == [.value([1, 2]), .value([3, 4]), .finished])
    }

    @Test func aRequestForNArraysAsksForNTimesCountElements() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<[Int], Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.collect(3).subscribe(recorder)
        #expect(upstream.requests == [.max(6)])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .max(3))   // the subscriber's .max(1), in elements
        recorder.request(.unlimited)
        #expect(upstream.requests == [.max(6), .unlimited])
    }

    @Test func honoursFiniteDemandExactly() {
        let recorder = TestRecorder<[Int], Never>(initialDemand: .max(1))
        (1...7).publisher.collect(2).subscribe(recorder)
        #expect(recorder.events == [.value([1, 2])])
        recorder.request(.max(2))
        #expect(recorder.events == [.value([1, 2]), .value([3, 4]), .value([5, 6])])
        recorder.request(.max(1))
        #expect(recorder.events == [.value([1, 2]), .value([3, 4]), .value([5, 6]), .value([7]), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func aFailureDropsTheCollectedElements() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<[Int], TestError>()
        subject.collect(3).subscribe(recorder)
        for value in 1...4 { subject.send(value) }
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value([1, 2, 3]), .failure(.boom)])
    }

    @Test func cancelStopsEverything() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<[Int], Never>()
        upstream.collect(2).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        #expect(upstream.cancelCount == 1)
    }

    @Test func aCancelWhileReceivingTheRestSendsNoCompletion() {
        let recorder = TestRecorder<[Int], Never>(releasesSubscription: [])
        recorder.onValue = { [unowned recorder] _ in recorder.subscription?.cancel() }
        [1, 2, 3].publisher.collect(5).subscribe(recorder)
        #expect(recorder.events == [.value([1, 2, 3])])
    }

    @Test func theSubscriptionIsNamedAsCombineNamesIt() {
        #expect(subscriptionName(of: PassthroughSubject<Int, Never>().collect(2)) == "CollectByCount")
    }
}
