import Testing
@testable import Bindings

@Suite struct CoreJustTests {
    @Test func deliversTheValueAndFinishesOnDemand() {
        let recorder = CoreRecorder<Int, Never>(initialDemand: .none)
        Just(1).subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])
        recorder.request(.max(1))
        recorder.request(.unlimited)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func unlimitedSubscriberGetsValueAndFinished() {
        let recorder = CoreRecorder<String, Never>()
        Just("a").subscribe(recorder)
        #expect(recorder.events == [.subscription, .value("a"), .finished])
    }

    @Test func eachSubscriberGetsItsOwnValue() {
        let just = Just(3)
        let first = CoreRecorder<Int, Never>()
        let second = CoreRecorder<Int, Never>()
        just.subscribe(first)
        just.subscribe(second)
        #expect(first.events == [.subscription, .value(3), .finished])
        #expect(second.events == [.subscription, .value(3), .finished])
        #expect(just.output == 3)
        #expect(Just(3) == just)
        #expect(Just(4) != just)
    }

    @Test func nothingAfterCancel() {
        let recorder = CoreRecorder<Int, Never>(initialDemand: .none)
        Just(1).subscribe(recorder)
        recorder.subscription?.cancel()
        recorder.subscription?.request(.max(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func subscriptionReleasesItsSubscriberOnCancel() {
        // A subscriber that keeps its subscription forms a cycle until the subscription
        // lets go of it, as Combine's does on cancel.
        weak var weakRecorder: CoreRecorder<Int, Never>?
        let subscription: (any Subscription)?
        do {
            let recorder = CoreRecorder<Int, Never>(initialDemand: .none)
            weakRecorder = recorder
            Just(1).subscribe(recorder)
            subscription = recorder.subscription
        }
        #expect(weakRecorder != nil)
        subscription?.cancel()
        #expect(weakRecorder == nil)
    }

    @Test func subscriptionReleasesItsSubscriberAfterDelivering() {
        weak var weakRecorder: CoreRecorder<Int, Never>?
        let subscription: (any Subscription)?
        do {
            let recorder = CoreRecorder<Int, Never>(initialDemand: .none)
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
        let recorder = CoreRecorder<Int, Never>()
        recorder.onValue = { _ in recorder.cancel() }
        Just(1).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.onValue = nil
    }
}

@Suite struct CoreEmptyTests {
    @Test func completesImmediatelyByDefault() {
        let recorder = CoreRecorder<Int, CoreTestError>(initialDemand: .none)
        Empty<Int, CoreTestError>().subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func neverCompletesWhenAsked() {
        let recorder = CoreRecorder<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).subscribe(recorder)
        recorder.request(.max(3))
        #expect(recorder.events == [.subscription])
    }

    @Test func typedInitAndEquality() {
        let empty = Empty(completeImmediately: false, outputType: String.self, failureType: CoreTestError.self)
        #expect(empty.completeImmediately == false)
        #expect(empty == Empty<String, CoreTestError>(completeImmediately: false))
        #expect(empty != Empty<String, CoreTestError>())
        let recorder = CoreRecorder<String, CoreTestError>()
        Empty(outputType: String.self, failureType: CoreTestError.self).subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }
}

@Suite struct CoreFailTests {
    @Test func failsAtOnceWithoutDemand() {
        let recorder = CoreRecorder<Int, CoreTestError>(initialDemand: .none)
        Fail<Int, CoreTestError>(error: .boom).subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(.boom)])
    }

    @Test func typedInitAndEquality() {
        let fail = Fail(outputType: Int.self, failure: CoreTestError.other)
        #expect(fail.error == .other)
        #expect(fail == Fail<Int, CoreTestError>(error: .other))
        #expect(fail != Fail<Int, CoreTestError>(error: .boom))
        let recorder = CoreRecorder<Int, CoreTestError>()
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
        let first = CoreRecorder<Int, Never>()
        deferred.subscribe(first)
        #expect(calls == 1)
        let second = CoreRecorder<Int, Never>()
        deferred.subscribe(second)
        #expect(calls == 2)
        #expect(first.events == [.subscription, .value(10), .finished])
        #expect(second.events == [.subscription, .value(20), .finished])
    }

    @Test func forwardsFailureAndDemand() {
        let failing = Deferred { Fail<Int, CoreTestError>(error: .boom) }
        let recorder = CoreRecorder<Int, CoreTestError>(initialDemand: .none)
        failing.subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(.boom)])

        let subject = PassthroughSubject<Int, Never>()
        let manual = CoreRecorder<Int, Never>(initialDemand: .none)
        Deferred { subject }.subscribe(manual)
        subject.send(1)
        manual.request(.max(1))
        subject.send(2)
        subject.send(3)
        #expect(manual.events == [.subscription, .value(2)])
    }
}
