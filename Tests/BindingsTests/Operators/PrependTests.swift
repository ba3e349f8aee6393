import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: prepend")
struct OperatorsPrependTests {
    @Test func valuesComeFirstThenTheUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.prepend(1, 2).subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2)])
        subject.send(3)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func sequenceComesFirst() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let prepended: Publishers.Concatenate<Publishers.Sequence<ClosedRange<Int>, Never>, Just<Int>> =
            Just(9).prepend(1...3)
        prepended.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .value(9), .finished])
    }

    @Test func publisherIsSubscribedToOnlyAfterThePrefixFinishes() {
        let prefix = PassthroughSubject<Int, Never>()
        let suffix = PassthroughSubject<Int, Never>()
        let suffixSubscriptions = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        suffix.handleEvents(receiveSubscription: { _ in suffixSubscriptions.append(1) })
            .prepend(prefix).subscribe(recorder)
        suffix.send(-1)
        prefix.send(1)
        #expect(suffixSubscriptions.count == 0)
        prefix.send(completion: .finished)
        #expect(suffixSubscriptions.count == 1)
        suffix.send(2)
        suffix.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    @Test func prefixFailureEndsTheStream() {
        let suffixSubscriptions = LockedLog<Int>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        Just(5).setFailureTypeForOpsA(TestError.self)
            .handleEvents(receiveSubscription: { _ in suffixSubscriptions.append(1) })
            .prepend(Fail(error: .boom))
            .subscribe(recorder)
        #expect(recorder.events == [.failure(.boom)])
        #expect(suffixSubscriptions.count == 0)
    }

    @Test func suffixFailureIsForwarded() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject.prepend(0).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(0), .value(1), .failure(.boom)])
    }

    @Test func honoursDemandAcrossTheSwitch() {
        let suffixRequests = LockedLog<Subscribers.Demand>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        (10...12).publisher.handleEvents(receiveRequest: { suffixRequests.append($0) })
            .prepend(1, 2).subscribe(recorder)
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2)])
        // The prefix is done and the suffix subscribed, with nothing outstanding to ask.
        #expect(suffixRequests.items == [])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .value(10)])
        #expect(suffixRequests.items == [.max(1)])
        recorder.request(.max(2))
        #expect(recorder.events == [.value(1), .value(2), .value(10), .value(11), .value(12), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func leftoverDemandCarriesOverToTheSuffix() {
        let suffixRequests = LockedLog<Subscribers.Demand>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(3), releasesSubscription: [.onCompletion, .onCancel])
        (10...12).publisher.handleEvents(receiveRequest: { suffixRequests.append($0) })
            .prepend(1).subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(10), .value(11)])
        #expect(suffixRequests.items == [.max(2)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelDuringThePrefixNeverSubscribesTheSuffix() {
        let suffixSubscriptions = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        Just(9).handleEvents(receiveSubscription: { _ in suffixSubscriptions.append(1) })
            .prepend(1, 2).subscribe(recorder)
        recorder.cancel()
        recorder.request(.max(5))
        #expect(recorder.events == [.value(1)])
        #expect(suffixSubscriptions.count == 0)
    }

    @Test func cancelDuringTheSuffixCancelsIt() {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.handleEvents(receiveCancel: { cancels.append(1) }).prepend(0).subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.events == [.value(0), .value(1)])
        #expect(cancels.count == 1)
    }

    // Combine's behaviour with upstreams that break the rules, and on cancel.

    @Test func neverDeliversMoreThanWasDemanded() {
        let prefix = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(3))
        PassthroughSubject<Int, Never>().prepend(prefix).subscribe(recorder)
        for value in 1...11 { prefix.send(value) }
        #expect(recorder.events == [.value(1), .value(2), .value(3)])
        recorder.request(.max(1))
        prefix.send(12)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .value(12)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func lateValuesAndCompletionsAreDropped() {
        let prefix = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        PassthroughSubject<Int, Never>().prepend(prefix).subscribe(recorder)
        prefix.send(1)
        recorder.cancel()
        prefix.send(2)
        prefix.send(completion: .finished)
        #expect(recorder.events == [.value(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelReleasesTheSuffix() {
        weak var weakSuffix: PassthroughSubject<Int, Never>?
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        do {
            let suffix = PassthroughSubject<Int, Never>()
            weakSuffix = suffix
            suffix.prepend(PassthroughSubject<Int, Never>()).subscribe(recorder)
        }
        #expect(weakSuffix != nil)
        recorder.cancel()
        #expect(weakSuffix == nil)
    }
}

extension Just {
    /// `Just` with another failure type, for the prepend tests (the library has no
    /// `setFailureType` yet): the values of `self`, and a finish.
    fileprivate func setFailureTypeForOpsA<E: Error>(_: E.Type) -> Publishers.Sequence<[Output], E> {
        Publishers.Sequence(sequence: [output])
    }
}
