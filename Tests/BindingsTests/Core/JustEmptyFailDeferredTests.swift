import BindingsTestSupport
import Testing
@testable import Bindings

@Suite struct CoreJustTests {
    @Test func deliversTheValueAndFinishesOnDemand() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        Just(1).subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])
        recorder.request(.max(1))
        recorder.request(.unlimited)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func unlimitedSubscriberGetsValueAndFinished() {
        let recorder = TestRecorder<String, Never>(recordsSubscription: true)
        Just("a").subscribe(recorder)
        #expect(recorder.events == [.subscription, .value("a"), .finished])
    }

    @Test func eachSubscriberGetsItsOwnValue() {
        let just = Just(3)
        let first = TestRecorder<Int, Never>(recordsSubscription: true)
        let second = TestRecorder<Int, Never>(recordsSubscription: true)
        just.subscribe(first)
        just.subscribe(second)
        #expect(first.events == [.subscription, .value(3), .finished])
        #expect(second.events == [.subscription, .value(3), .finished])
        #expect(just.output == 3)
        #expect(Just(3) == just)
        #expect(Just(4) != just)
    }

    @Test func nothingAfterCancel() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        Just(1).subscribe(recorder)
        recorder.subscription?.cancel()
        recorder.subscription?.request(.max(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func subscriptionReleasesItsSubscriberOnCancel() {
        // A subscriber that keeps its subscription forms a cycle until the subscription
        // lets go of it, as Combine's does on cancel.
        weak var weakRecorder: TestRecorder<Int, Never>?
        let subscription: (any Subscription)?
        do {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
            weakRecorder = recorder
            Just(1).subscribe(recorder)
            subscription = recorder.subscription
        }
        #expect(weakRecorder != nil)
        subscription?.cancel()
        #expect(weakRecorder == nil)
    }

    @Test func subscriptionReleasesItsSubscriberAfterDelivering() {
        weak var weakRecorder: TestRecorder<Int, Never>?
        let subscription: (any Subscription)?
        do {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
            weakRecorder = recorder
            Just(1).subscribe(recorder)
            subscription = recorder.subscription
            recorder.request(.max(1))
            #expect(recorder.events == [.subscription, .value(1), .finished])
        }
        #expect(weakRecorder == nil)
        withExtendedLifetime(subscription) {}
    }

    @Test func cancelFromInsideReceiveValueStopsTheCompletion() {
        // Nothing is delivered after cancel(): not even the `.finished` that Combine's
        // Just would still send right after the value.
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        recorder.onValue = { _ in recorder.cancel() }
        Just(1).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.onValue = nil
    }
}

@Suite struct CoreEmptyTests {
    @Test func completesImmediatelyByDefault() {
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none, recordsSubscription: true)
        Empty<Int, TestError>().subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func neverCompletesWhenAsked() {
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        Empty<Int, Never>(completeImmediately: false).subscribe(recorder)
        recorder.request(.max(3))
        #expect(recorder.events == [.subscription])
    }

    @Test func typedInitAndEquality() {
        let empty = Empty(completeImmediately: false, outputType: String.self, failureType: TestError.self)
        #expect(empty.completeImmediately == false)
        #expect(empty == Empty<String, TestError>(completeImmediately: false))
        #expect(empty != Empty<String, TestError>())
        let recorder = TestRecorder<String, TestError>(recordsSubscription: true)
        Empty(outputType: String.self, failureType: TestError.self).subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }
}

@Suite struct CoreFailTests {
    @Test func failsAtOnceWithoutDemand() {
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none, recordsSubscription: true)
        Fail<Int, TestError>(error: .boom).subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(.boom)])
    }

    @Test func typedInitAndEquality() {
        let fail = Fail(outputType: Int.self, failure: TestError.other)
        #expect(fail.error == .other)
        #expect(fail == Fail<Int, TestError>(error: .other))
        #expect(fail != Fail<Int, TestError>(error: .boom))
        let recorder = TestRecorder<Int, TestError>(recordsSubscription: true)
        fail.subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(.other)])
    }
}

@Suite struct CoreDeferredTests {
    @Test func runsTheClosureOncePerSubscription() {
        var calls = 0
        let deferred = Deferred { () -> Just<Int> in
            calls += 1
            return Just(calls * 10)
        }
        #expect(calls == 0)
        let first = TestRecorder<Int, Never>(recordsSubscription: true)
        deferred.subscribe(first)
        #expect(calls == 1)
        let second = TestRecorder<Int, Never>(recordsSubscription: true)
        deferred.subscribe(second)
        #expect(calls == 2)
        #expect(first.events == [.subscription, .value(10), .finished])
        #expect(second.events == [.subscription, .value(20), .finished])
    }

    @Test func forwardsFailureAndDemand() {
        let failing = Deferred { Fail<Int, TestError>(error: .boom) }
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none, recordsSubscription: true)
        failing.subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(.boom)])

        let subject = PassthroughSubject<Int, Never>()
        let manual = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        Deferred { subject }.subscribe(manual)
        subject.send(1)
        manual.request(.max(1))
        subject.send(2)
        subject.send(3)
        #expect(manual.events == [.subscription, .value(2)])
    }
}
