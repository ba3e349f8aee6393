import BindingsTestSupport
import Testing
@testable import Bindings

// Issue 13, item 2, lifetime: the subscriptions of zip, combineLatest of four, merge of
// three to eight, catch, tryCatch, retry, drop(untilOutputFrom:), prefix(untilOutputFrom:)
// and flatMap let go of their subscriber when the stream completes or is cancelled, also
// of one that keeps its subscription (each holds the other), and of what they buffered;
// assign(to:) lets go of its subscriber when its upstream completes and when its model
// deinitialises. Run under AddressSanitizer with LeakSanitizer in CI: a cycle left
// behind fails the step.

/// An operator attached to a subject that never ends unless the test ends it.
enum RelOperatorPipeline: String, CaseIterable, CustomTestStringConvertible {
    case zip, zip3, zip4, combineLatest4, merge3, merge8, catchUpstream, catchReplacement, tryCatch, retry
    case dropUntilOutput, prefixUntilOutput, flatMap

    var testDescription: String { rawValue }

    /// Subscribes `recorder` to `subject` through this operator; the stream finishes when
    /// the subject does.
    func attach(_ recorder: TestRecorder<Int, TestError>, to subject: PassthroughSubject<Int, TestError>) {
        let other = PassthroughSubject<Int, TestError>()   // never sends
        switch self {
        case .zip: subject.zip(subject).map { $0.0 }.subscribe(recorder)
        case .zip3: subject.zip(subject, subject).map { $0.0 }.subscribe(recorder)
        case .zip4: subject.zip(subject, subject, subject).map { $0.0 }.subscribe(recorder)
        case .combineLatest4: subject.combineLatest(subject, subject, subject).map { $0.0 }.subscribe(recorder)
        case .merge3: subject.merge(with: subject, subject).subscribe(recorder)
        case .merge8: subject.merge(with: subject, subject, subject, subject, subject, subject, subject).subscribe(recorder)
        case .catchUpstream: subject.catch { _ in other }.subscribe(recorder)
        case .catchReplacement: Fail(error: TestError.boom).catch { _ in subject }.subscribe(recorder)
        case .tryCatch:
            Fail<Int, TestError>(error: .boom).tryCatch { _ in subject }.catch { _ in Empty<Int, TestError>() }.subscribe(recorder)
        case .retry: subject.retry(3).subscribe(recorder)
        case .dropUntilOutput: subject.drop(untilOutputFrom: Just(()).setFailureType(to: TestError.self)).subscribe(recorder)
        case .prefixUntilOutput: subject.prefix(untilOutputFrom: other).subscribe(recorder)
        case .flatMap: Just(0).setFailureType(to: TestError.self).flatMap { _ in subject }.subscribe(recorder)
        }
    }
}

@Suite("Reliability: multi-upstream and error operators release their subscriber")
struct RelOperatorLifetimeTests {
    @Test(arguments: RelOperatorPipeline.allCases)
    func atCompletion(_ pipeline: RelOperatorPipeline) {
        let subject = PassthroughSubject<Int, TestError>()
        weak var weakRecorder: TestRecorder<Int, TestError>?
        weak var weakSubscription: AnyObject?
        do {
            let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
            weakRecorder = recorder
            pipeline.attach(recorder, to: subject)
            weakSubscription = recorder.subscription as AnyObject?
            subject.send(1)
            #expect(recorder.values.first == 1)
        }
        #expect(weakRecorder != nil, "the subscription holds it while the stream goes on")
        subject.send(completion: .finished)
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)
    }

    @Test(arguments: RelOperatorPipeline.allCases)
    func atCancel(_ pipeline: RelOperatorPipeline) {
        let subject = PassthroughSubject<Int, TestError>()
        weak var weakRecorder: TestRecorder<Int, TestError>?
        var subscription: (any Subscription)?
        do {
            let recorder = TestRecorder<Int, TestError>(initialDemand: .max(1), releasesSubscription: [])
            weakRecorder = recorder
            pipeline.attach(recorder, to: subject)
            subscription = recorder.subscription
            subject.send(1)
            subject.send(2)   // beyond the demand: dropped or kept by the operator
        }
        #expect(weakRecorder != nil)
        subscription?.cancel()
        #expect(weakRecorder == nil)
        subject.send(3)   // reaches nobody
        subscription = nil
    }

    @Test func zipReleasesWhatItBufferedAtCancel() {
        let counter = LiveCounter()
        let a = PassthroughSubject<Canary, Never>()
        let b = PassthroughSubject<Canary, Never>()
        let recorder = TestRecorder<(Canary, Canary), Never>(releasesSubscription: [])
        a.zip(b).subscribe(recorder)
        for _ in 0..<3 { a.send(Canary(counter)) }
        #expect(counter.live == 3)
        recorder.cancel()
        #expect(counter.live == 0)
    }

    @Test func anAssignmentIsReleasedWhenItsUpstreamCompletes() {
        let upstream = RelSubscriberCapture()
        let model = OpsBThermostat()
        upstream.assign(to: &model.$temperature)
        #expect(upstream.subscriber != nil)
        upstream.send(5)
        #expect(model.temperature == 5)
        upstream.finish()
        #expect(upstream.subscriber == nil, "the model no longer keeps the finished assignment")
    }

    @Test func anAssignmentIsReleasedWithItsModel() {
        let upstream = RelSubscriberCapture()
        do {
            let model = OpsBThermostat()
            upstream.assign(to: &model.$temperature)
            upstream.send(5)
        }
        #expect(upstream.subscriber == nil)
        #expect(upstream.cancelled)
    }

    @Test func aModelAssigningToItselfFromAStreamThatNeverEndsIsReleased() {
        let ticks = PassthroughSubject<Int, Never>()
        weak var weakClock: OpsBClock?
        do {
            let clock = OpsBClock(ticks: ticks)
            weakClock = clock
            ticks.send(1)
        }
        #expect(weakClock == nil)
    }
}

/// An upstream that hands its subscriber a subscription and keeps the subscriber only
/// until it finishes, holding the subscriber object weakly, so that a test sees when the
/// subscriber's other owners let go of it.
final class RelSubscriberCapture: Publisher {
    typealias Output = Int
    typealias Failure = Never

    private var strong: AnySubscriber<Int, Never>?
    private(set) weak var subscriber: AnyObject?
    private(set) var cancelled = false

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        self.subscriber = subscriber as AnyObject
        strong = AnySubscriber(subscriber)
        subscriber.receive(subscription: Conduit(owner: self))
    }

    func send(_ value: Int) { _ = strong?.receive(value) }

    func finish() {
        let subscriber = strong
        strong = nil
        subscriber?.receive(completion: .finished)
    }

    private final class Conduit: Subscription {
        weak var owner: RelSubscriberCapture?
        init(owner: RelSubscriberCapture) { self.owner = owner }
        func request(_ demand: Subscribers.Demand) {}
        func cancel() {
            owner?.cancelled = true
            owner?.strong = nil
        }
    }
}
