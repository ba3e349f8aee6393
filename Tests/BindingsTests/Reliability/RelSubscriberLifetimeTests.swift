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

    /// A sequence's subscription lets go of its subscriber when it has sent everything,
    /// and when it is cancelled.
    @Test func aSequencesSubscriberIsReleasedAtTheEndAndAtCancel() {
        weak var finished: TestRecorder<Int, Never>?
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            finished = recorder
            [1, 2].publisher.subscribe(recorder)
            #expect(recorder.events == [.value(1), .value(2), .finished])
        }
        #expect(finished == nil)

        weak var cancelled: TestRecorder<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [])
            cancelled = recorder
            [1, 2].publisher.subscribe(recorder)
            #expect(recorder.events == [.value(1)])
            subscription = recorder.subscription
        }
        #expect(cancelled != nil, "the subscription holds it while the sequence goes on")
        subscription?.cancel()
        #expect(cancelled == nil)
        subscription?.request(.max(1))   // does nothing
        subscription = nil
    }

    /// The subscription of a property (`$firstName`), of a key path (`publisher(for:)`,
    /// here a computed one) and of an `ObservableValue` lets go of a subscriber that keeps
    /// it when cancelled, and when the observed object goes (it held the subscriber, which
    /// held it, for good).
    @Test(arguments: ["$firstName", "publisher(for:)", "ObservableValue"])
    func anObservedValuesSubscriberIsReleasedAtCancelAndAtTheEnd(_ source: String) {
        func attach(_ recorder: TestRecorder<String, Never>, to person: ObsPerson, or value: ObservableValue<String>) {
            switch source {
            case "$firstName": person.$firstName.subscribe(recorder)
            case "publisher(for:)": person.publisher(for: \.fullName).subscribe(recorder)
            default: value.subscribe(recorder)
            }
        }
        let person = ObsPerson()
        let value = ObservableValue("Ada")
        weak var cancelled: TestRecorder<String, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = TestRecorder<String, Never>(releasesSubscription: [])
            cancelled = recorder
            attach(recorder, to: person, or: value)
            #expect(recorder.events.count == 1, "the current value")
            subscription = recorder.subscription
        }
        #expect(cancelled != nil, "the subscription holds it while it goes on")
        subscription?.cancel()
        #expect(cancelled == nil)
        subscription?.request(.max(1))   // does nothing
        subscription = nil

        weak var ended: TestRecorder<String, Never>?
        do {
            let person = ObsPerson()
            let value = ObservableValue("Ada")
            let recorder = TestRecorder<String, Never>(releasesSubscription: [])
            ended = recorder
            attach(recorder, to: person, or: value)
            #expect(recorder.events.count == 1)
        }
        #expect(ended == nil, "ended with the observed object, and released")
    }

    /// A `share()` whose subscribers come and go connects to its upstream each time; the
    /// subscriptions of the connections that ended are let go of (its relay subject kept
    /// every one it was given).
    @Test func aSharedPublisherKeepsNoSubscriptionOfAnEndedConnection() {
        let upstream = RelCountedPublisher()
        let shared = upstream.share()
        for _ in 0..<3 { shared.sink { _ in }.cancel() }
        #expect(upstream.subscriptions.count == 3)
        #expect(upstream.subscriptions.allSatisfy { $0.object == nil })

        let connectable = RelCountedPublisher()
        let made = connectable.makeConnectable()
        for _ in 0..<3 { made.connect().cancel() }
        #expect(connectable.subscriptions.count == 3)
        #expect(connectable.subscriptions.allSatisfy { $0.object == nil })
    }

    /// A subject that only its connection holds, with no subscriber, goes when the
    /// connection ends, cancelled or completed: its end cancels the subscriptions it keeps,
    /// the connection among them, which must not be holding its lock then (it hung).
    @Test(arguments: [false, true])
    func aSubjectHeldOnlyByItsConnectionGoesWhenItEnds(_ completing: Bool) {
        let ended = DispatchSemaphore(value: 0)
        weak var weakSubject: PassthroughSubject<Int, Never>?
        let upstream = PassthroughSubject<Int, Never>()
        let connection = Locked<AnyCancellable?>(nil)
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            connection.value = upstream.subscribe(subject)
        }
        #expect(weakSubject != nil, "the connection holds it")
        // On another thread, so that a deadlock fails the test rather than hanging it.
        let handedOver = UncheckedBox(upstream)
        DispatchQueue.global().async {
            if completing {
                handedOver.value.send(completion: .finished)
            } else {
                connection.value?.cancel()
            }
            ended.signal()
        }
        #expect(ended.wait(timeout: .now() + 10) == .success)
        #expect(weakSubject == nil)
        connection.value = nil
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

/// A publisher that never sends, whose subscriptions are held weakly here, to see them go.
final class RelCountedPublisher: Publisher, @unchecked Sendable {
    // `@unchecked Sendable`: `made` is only touched with its lock (`LockedLog`).
    typealias Output = Int
    typealias Failure = Never

    private final class Counted: Subscription {
        func request(_ demand: Subscribers.Demand) {}
        func cancel() {}
    }

    private let made = LockedLog<WeakBox<AnyObject>>()

    /// One weak reference per subscription made, in order.
    var subscriptions: [WeakBox<AnyObject>] { made.items }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let subscription = Counted()
        made.append(WeakBox(subscription))
        subscriber.receive(subscription: subscription)
    }
}
