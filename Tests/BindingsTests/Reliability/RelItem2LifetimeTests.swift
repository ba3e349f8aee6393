import BindingsTestSupport
import Testing
@testable import Bindings

// Issue 13, item 2, lifetime: the operators that give their subscriber a subscription of
// their own let go of the subscriber at the completion or a cancel, so that a subscriber
// that keeps its subscription (each holding the other) is not leaked. Run under
// AddressSanitizer with LeakSanitizer in CI: a cycle left behind fails the step.

/// An operator of issue 13, item 2, with its own subscription.
enum RelItem2Pipeline: String, CaseIterable, CustomTestStringConvertible {
    case tryMap, tryFilter, tryScan, dropWhile, prefixWhile, reduce, count, first, collect, collectByCount
    case replaceEmpty, replaceError, print

    var testDescription: String { rawValue }

    /// Subscribes `recorder` to `subject` through this operator.
    func attach(_ recorder: TestRecorder<Int, Never>, to subject: PassthroughSubject<Int, Never>) {
        switch self {
        case .tryMap: subject.tryMap { $0 }.replaceError(with: 0).subscribe(recorder)
        case .tryFilter: subject.tryFilter { _ in true }.replaceError(with: 0).subscribe(recorder)
        case .tryScan: subject.tryScan(0, +).replaceError(with: 0).subscribe(recorder)
        case .dropWhile: subject.drop { _ in false }.subscribe(recorder)
        case .prefixWhile: subject.prefix { _ in true }.subscribe(recorder)
        case .reduce: subject.reduce(0, +).subscribe(recorder)
        case .count: subject.count().subscribe(recorder)
        case .first: subject.first { $0 > 100 }.subscribe(recorder)
        case .collect: subject.collect().map(\.count).subscribe(recorder)
        case .collectByCount: subject.collect(3).map(\.count).subscribe(recorder)
        case .replaceEmpty: subject.replaceEmpty(with: 0).subscribe(recorder)
        case .replaceError: subject.setFailureType(to: TestError.self).replaceError(with: 0).subscribe(recorder)
        case .print: subject.print(to: DiscardingStream()).subscribe(recorder)
        }
    }
}

/// A text stream that drops what it is given.
struct DiscardingStream: TextOutputStream {
    mutating func write(_ string: String) {}
}

@Suite("Reliability: a subscriber that keeps an item-2 operator's subscription is released")
struct RelItem2LifetimeTests {
    @Test(arguments: RelItem2Pipeline.allCases)
    func atCompletion(_ pipeline: RelItem2Pipeline) {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            pipeline.attach(recorder, to: subject)
            subject.send(1)
        }
        #expect(weakRecorder != nil, "the subscription holds it while the stream goes on")
        subject.send(completion: .finished)
        #expect(weakRecorder == nil)
    }

    @Test(arguments: RelItem2Pipeline.allCases)
    func atCancel(_ pipeline: RelItem2Pipeline) {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            pipeline.attach(recorder, to: subject)
            subscription = recorder.subscription
        }
        #expect(weakRecorder != nil)
        subscription?.cancel()
        #expect(weakRecorder == nil)
        subject.send(2)   // reaches nobody
        subscription = nil
    }

    @Test func aResultWaitingForDemandIsReleasedWithItsSubscriber() {
        let counter = LiveCounter()
        let subject = PassthroughSubject<Canary, Never>()
        weak var weakRecorder: TestRecorder<Canary, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = TestRecorder<Canary, Never>(initialDemand: .none, releasesSubscription: [])
            weakRecorder = recorder
            subject.last().subscribe(recorder)
            subject.send(Canary(counter))
            subject.send(completion: .finished)   // the last value waits for a request
            subscription = recorder.subscription
        }
        #expect(counter.live == 1)
        subscription?.cancel()
        #expect(weakRecorder == nil)
        #expect(counter.live == 0)
        subscription = nil
    }
}
