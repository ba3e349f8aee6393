import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// Issue 13, lifetime: once a subject's subscription completes or is cancelled, it lets
// go of its subscriber, also of one that keeps its subscription (a careless subscriber:
// each holds the other), through the operators that pass the subject's subscription on
// (`map`, `filter`, `compactMap`, `scan`, key-path `map`) and through `throttle`,
// `debounce`, `append` and `prepend`, as Combine's do. Run under AddressSanitizer with LeakSanitizer in CI: a
// cycle left behind fails the step.

/// What a subscriber is attached to a subject through.
enum RelLifetimePipeline: String, CaseIterable, CustomTestStringConvertible {
    case direct, map, filter, compactMap, scan, keyPathMap, throttle, debounce, append, prepend

    var testDescription: String { rawValue }

    /// Subscribes `recorder` to `subject` through this pipeline.
    func attach(_ recorder: TestRecorder<Int, Never>, to subject: PassthroughSubject<Int, Never>) {
        switch self {
        case .direct: subject.subscribe(recorder)
        case .map: subject.map { $0 + 1 }.subscribe(recorder)
        case .filter: subject.filter { $0 > 0 }.subscribe(recorder)
        case .compactMap: subject.compactMap { $0 }.subscribe(recorder)
        case .scan: subject.scan(0, +).subscribe(recorder)
        case .keyPathMap: subject.map(\.self).subscribe(recorder)
        case .throttle:
            subject.throttle(for: .seconds(60), scheduler: ImmediateScheduler.shared, latest: true).subscribe(recorder)
        case .debounce:
            subject.debounce(for: .seconds(60), scheduler: ImmediateScheduler.shared).subscribe(recorder)
        case .append: subject.append(9).subscribe(recorder)
        case .prepend: subject.prepend(Empty<Int, Never>()).subscribe(recorder)
        }
    }
}

@Suite("Reliability: a subscriber that keeps its subscription is released")
struct RelSubscriberLifetimeTests {
    @Test(arguments: RelLifetimePipeline.allCases)
    func atCompletion(_ pipeline: RelLifetimePipeline) {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = TestRecorder<Int, Never>(recordsSubscription: true, releasesSubscription: [])
            weakRecorder = recorder
            pipeline.attach(recorder, to: subject)
            subject.send(1)
            #expect(recorder.events.count == 2)   // the subscription and one value
        }
        #expect(weakRecorder != nil, "the subscription holds it while the stream goes on")
        subject.send(completion: .finished)
        #expect(weakRecorder == nil)
    }

    @Test(arguments: RelLifetimePipeline.allCases)
    func atCancel(_ pipeline: RelLifetimePipeline) {
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
        subscription?.request(.max(1))   // does nothing
        subscription = nil
    }

    /// A subscriber that cancels from `receive(_:)` while the operator delivers, and is
    /// then held only by the delivering loop, is released after the operator's lock is
    /// given up: its `deinit` may call back in (here a kept `AnyCancellable` cancels,
    /// which takes the lock, and under it never returned).
    @Test(arguments: ["throttle", "debounce", "timeout"])
    func aSubscriberThatCancelsOnAValueIsReleasedOutsideTheLock(_ operatorName: String) {
        let subject = PassthroughSubject<Int, Never>()
        let scheduler = TestScheduler()
        do {
            let recorder = TestRecorder<Int, Never>()
            recorder.onSubscription = { [unowned recorder] subscription in
                // Released with the recorder: cancels. (`unchecked`: the subscription is
                // not `Sendable`; the cancel runs wherever the recorder goes.)
                let token = AnyCancellable.unchecked { subscription.cancel() }
                recorder.onValue = { [unowned recorder] _ in
                    withExtendedLifetime(token) {}
                    recorder.cancel()
                }
            }
            switch operatorName {
            case "throttle":
                subject.throttle(for: .seconds(60), scheduler: ImmediateScheduler.shared, latest: true).subscribe(recorder)
            case "debounce":
                subject.debounce(for: .seconds(60), scheduler: ImmediateScheduler.shared).subscribe(recorder)
            default:
                subject.timeout(.seconds(60), scheduler: scheduler).subscribe(recorder)
            }
        }
        // On another thread, so that a deadlock fails the test rather than hanging it.
        let delivered = DispatchSemaphore(value: 0)
        let handedOver = UncheckedBox(scheduler)   // used by that thread alone from here on
        DispatchQueue.global().async {
            subject.send(1)
            handedOver.value.advance()   // `timeout` delivers each value through its scheduler
            delivered.signal()
        }
        #expect(delivered.wait(timeout: .now() + 10) == .success)
    }

    @Test func aCancelledThrottleIsNotKeptAliveByItsScheduledEmission() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder)
            subject.send(1)            // its emission is scheduled
            weakSubscription = recorder.subscription as AnyObject?
            recorder.subscription?.cancel()
        }
        #expect(scheduler.pendingCount == 1)
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil, "the scheduled action holds it weakly")
        scheduler.advance(by: .seconds(2))   // runs the action: nothing to do
    }
}
