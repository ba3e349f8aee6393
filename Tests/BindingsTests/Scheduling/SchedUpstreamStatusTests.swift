import BindingsTestSupport
import Testing
@testable import Bindings

// The upstream's subscription in the operators with one upstream that deliver through a
// scheduler: the first one is kept and any later one cancelled; at the upstream's
// completion it is released, never cancelled; at a cancel it is cancelled, then released;
// and both happen after the operator unlocked, since the upstream may call back into it
// (were either done with the lock held, the call back would deadlock: the watchdog ends
// the run). `receive(on:)`, `delay`, `collect(.byTime)`, `debounce` and `throttle` keep
// this in an `UpstreamStatus`; `timeout` in a status of its own, with the same contract.

/// Each operator under test, on a ``TestScheduler``.
enum SchedScheduledOperator: CaseIterable, Sendable {
    case receiveOn, delay, collectByTime, debounce, throttle, timeout

    /// Subscribes a recorder to the operator on `upstream`; returns what the recorder saw
    /// so far (events, then any contract violations), and the subscription it was given.
    func attach(to upstream: SchedHandUpstream, scheduler: TestScheduler) -> SchedRecorded {
        switch self {
        case .receiveOn: SchedRecorded(upstream.receive(on: scheduler))
        case .delay: SchedRecorded(upstream.delay(for: .seconds(1), scheduler: scheduler))
        case .collectByTime: SchedRecorded(upstream.collect(.byTime(scheduler, .seconds(1))))
        case .debounce: SchedRecorded(upstream.debounce(for: .seconds(1), scheduler: scheduler))
        case .throttle: SchedRecorded(upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true))
        case .timeout: SchedRecorded(upstream.timeout(.seconds(1), scheduler: scheduler))
        }
    }
}

/// A recorder subscribed to one operator, whatever its output.
struct SchedRecorded {
    /// The events received, described (`"finished"`), then any violation of the
    /// subscriber contract.
    let seen: () -> [String]
    /// The subscription the recorder was given (the operator's).
    let subscription: () -> (any Subscription)?

    init<P: Publisher>(_ publisher: P) where P.Failure == TestError {
        let recorder = TestRecorder<P.Output, TestError>(releasesSubscription: [])
        publisher.subscribe(recorder)
        seen = { recorder.events.map(\.description) + recorder.violations }
        subscription = { recorder.subscription }
    }
}

/// An upstream that keeps its subscriber for the test to call by hand: subscriptions of
/// the test's making, values, completions.
final class SchedHandUpstream: Publisher {
    typealias Output = Int
    typealias Failure = TestError

    private(set) var subscriber: AnySubscriber<Int, TestError>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        self.subscriber = AnySubscriber(subscriber)
    }
}

/// An upstream's subscription whose `cancel()` and deinit call back into the operator
/// (`reenter`), then log `"cancel"` or `"released"`.
private final class ReentrantSubscription: Subscription {
    private let log: LockedLog<String>
    private let reenter: () -> Void

    init(log: LockedLog<String>, reenter: @escaping () -> Void) {
        self.log = log
        self.reenter = reenter
    }

    func request(_ demand: Subscribers.Demand) {}

    func cancel() {
        reenter()
        log.append("cancel")
    }

    deinit {
        reenter()
        log.append("released")
    }
}

@Suite("Scheduling: the upstream's subscription in the operators that deliver through a scheduler")
struct SchedUpstreamStatusTests {
    @Test(arguments: SchedScheduledOperator.allCases)
    func aLaterSubscriptionIsCancelledAndTheFirstKeptUntilTheCancel(_ kind: SchedScheduledOperator) {
        let scheduler = TestScheduler()
        let upstream = SchedHandUpstream()
        let recorded = kind.attach(to: upstream, scheduler: scheduler)
        let first = TestSubscription()
        let second = TestSubscription()
        upstream.subscriber?.receive(subscription: first)
        upstream.subscriber?.receive(subscription: second)
        #expect(second.log == [.cancel])
        #expect(first.cancelCount == 0)
        #expect(!first.requests.isEmpty, "the first subscription is the one asked for values")

        recorded.subscription()?.cancel()
        #expect(first.cancelCount == 1)
        let third = TestSubscription()
        upstream.subscriber?.receive(subscription: third)
        #expect(third.log == [.cancel])
        #expect(first.cancelCount == 1)
        #expect(recorded.seen() == [])
    }

    /// `kind` on a hand-driven upstream whose subscription, when cancelled or released,
    /// sends the operator a value (it logs each, in `log`): were the operator to do either
    /// with its lock held, that call back would deadlock.
    private static func attachedToAReentrantUpstream(_ kind: SchedScheduledOperator)
        -> (TestScheduler, SchedHandUpstream, SchedRecorded, LockedLog<String>)
    {
        let scheduler = TestScheduler()
        let upstream = SchedHandUpstream()
        let recorded = kind.attach(to: upstream, scheduler: scheduler)
        let log = LockedLog<String>()
        upstream.subscriber?.receive(subscription: ReentrantSubscription(log: log) { [weak upstream] in
            _ = upstream?.subscriber?.receive(0)
        })
        return (scheduler, upstream, recorded, log)
    }

    @Test(arguments: SchedScheduledOperator.allCases)
    func theCompletionReleasesTheSubscriptionAfterUnlockingWithoutCancellingIt(_ kind: SchedScheduledOperator) {
        let watchdog = RelWatchdog(seconds: 60, what: "theCompletionReleasesTheSubscription(\(kind))")
        let (scheduler, upstream, recorded, log) = Self.attachedToAReentrantUpstream(kind)   // its call: after the completion, ignored
        upstream.subscriber?.receive(completion: .finished)
        #expect(log.items == ["released"])
        scheduler.advance(by: .seconds(2))
        #expect(recorded.seen() == ["finished"])
        #expect(scheduler.pendingCount == 0)

        recorded.subscription()?.cancel()
        #expect(log.items == ["released"], "a cancel after the completion does not reach the upstream")
        watchdog.finish()
    }

    @Test(arguments: SchedScheduledOperator.allCases)
    func aCancelCancelsThenReleasesTheSubscriptionAfterUnlocking(_ kind: SchedScheduledOperator) {
        let watchdog = RelWatchdog(seconds: 60, what: "aCancelCancelsThenReleasesTheSubscription(\(kind))")
        let (scheduler, upstream, recorded, log) = Self.attachedToAReentrantUpstream(kind)   // its call: after the cancel, ignored
        recorded.subscription()?.cancel()
        #expect(log.items == ["cancel", "released"])

        // What a careless upstream sends after the cancel is ignored.
        _ = upstream.subscriber?.receive(1)
        upstream.subscriber?.receive(completion: .finished)
        scheduler.advance(by: .seconds(2))
        #expect(recorded.seen() == [])
        #expect(scheduler.pendingCount == 0)
        watchdog.finish()
    }
}
