import Synchronization

/// What a subject's channel carries.
@usableFromInline
enum SubjectEvent<Output, Failure: Error> {
    /// A value sent to every subscriber.
    case value(Output)
    /// The current value of a `CurrentValueSubject`, sent to one subscriber whose demand
    /// arrived after it missed a value; delivered only if still owed when it arrives (a
    /// newer value delivered in between makes it stale).
    case replay(Output)
    /// The end of the stream.
    case completion(Subscribers.Completion<Failure>)
}

/// The state that `PassthroughSubject` and `CurrentValueSubject` share: the channel, the
/// completion, the current value (for `CurrentValueSubject`) and the upstreams.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    // `@unchecked Sendable`:
    // - `channel`, `replaysCurrent`, `upstreamLock`: `let`s.
    // - `completion`, `current`: only touched in `init`, or with `channel`'s lock held (in
    //   the closures `Channel` runs under it, `accept` and `current`, or in `withLock`).
    // - `upstreams`: only touched with `upstreamLock` held, and in `deinit`.
    // - `demanded`: an atomic, set (once) with `upstreamLock` held.
    // `Output` need not be `Sendable`: the public subjects are `Sendable` only when it is.
    // `@exclusivity(unchecked)` on `completion`, `current`: the channel's lock orders them;
    // every send touches them.

    @usableFromInline let channel = Channel<SubjectEvent<Output, Failure>>()
    @exclusivity(unchecked) @usableFromInline var completion: Subscribers.Completion<Failure>?
    @exclusivity(unchecked) @usableFromInline var current: Output?
    /// Whether subscribers start with the current value (`CurrentValueSubject`).
    @usableFromInline let replaysCurrent: Bool
    private let upstreamLock = Lock()
    private var upstreams: [any Subscription] = []
    /// Set once any subscriber asked for values (Combine's "any downstream demand"):
    /// until then, a subscription the subject receives as a subscriber is kept and asked
    /// for nothing; from then on, each is asked for `.unlimited`.
    @usableFromInline let demanded = Atomic<Bool>(false)

    @usableFromInline
    init(current: Output?) {
        self.current = current
        replaysCurrent = current != nil
    }

    deinit {
        for upstream in upstreams { upstream.cancel() }
    }

    /// Inlined where the types are known, so that a `sink`'s closure is called from
    /// specialized code (see `callValue(_:_:)`).
    ///
    /// Each observer is called with `value` itself, not with the event: in generic code
    /// that was not specialized (a subject that a generic subscriber feeds, as `share()`'s
    /// does), taking the value out of the event for each observer looked up the event
    /// type's metadata each time (measured: `share()` with 10 `Subscribers.Sink`s 434 ->
    /// 333 ns a value); and the event itself is only made when it must wait in the
    /// channel's queue (see `Channel.sendInlined(acceptingUnderLock:queuing:callingEach:)`).
    ///
    /// `storingAfterCompletion`: a `CurrentValueSubject`'s `value` setter, which stores the
    /// value after completion too (and sends nothing then), as Combine's does.
    @inlinable
    func send(_ value: Output, storingAfterCompletion: Bool = false) {
        channel.sendInlined(
            acceptingUnderLock: {
                guard completion == nil else {
                    if storingAfterCompletion { current = value }
                    return false
                }
                if replaysCurrent {
                    current = value
                    // Under the lock: a subscriber joining while another thread delivers
                    // catches up with a value sent meanwhile (see `Channel.join`).
                    channel.countChange()
                }
                return true
            },
            queuing: { .value(value) },
            callingEach: { Self.callValue($0, value) })
    }

    func send(completion: Subscribers.Completion<Failure>) {
        channel.send(.completion(completion)) {
            guard self.completion == nil else { return false }
            self.completion = completion
            return true
        }
    }

    /// The subject as a subscriber (`publisher.subscribe(subject)`): keeps the
    /// subscription, and asks it for `.unlimited` once the subject's own subscribers ask
    /// for values, as Combine's subjects do.
    func send(subscription: any Subscription) {
        let ask = upstreamLock.withLock {
            upstreams.append(subscription)
            return demanded.load(ordering: .relaxed)
        }
        if ask { subscription.request(.unlimited) }
    }

    /// A subscriber asked for values: the first time, asks every upstream subscription
    /// for `.unlimited` (see ``send(subscription:)``). One load once that is done.
    @inlinable
    func acknowledgeDemand() {
        if demanded.load(ordering: .acquiring) { return }
        acknowledgeFirstDemand()
    }

    @usableFromInline
    func acknowledgeFirstDemand() {
        let asked: [any Subscription] = upstreamLock.withLock {
            if demanded.load(ordering: .relaxed) { return [] }
            demanded.store(true, ordering: .releasing)
            return upstreams
        }
        for subscription in asked { subscription.request(.unlimited) }
    }

    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectConduit(core: self, downstream: subscriber)
        var finished: Subscribers.Completion<Failure>?
        let added = channel.add(conduit, accept: {
            finished = completion
            return finished == nil
        })
        if added {
            subscriber.receive(subscription: SubjectSubscription(conduit))
            // A completion sent from another thread may have reached the conduit before
            // the subscriber had its subscription; it was kept for now.
            if let early = conduit.subscriptionHandedOver() {
                subscriber.receive(completion: early)
            }
        } else if let finished {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: finished)
        }
    }
}

/// One subscriber's subscription to a subject: it tracks the subscriber's demand and
/// delivers what the channel sends within it.
///
/// Demand follows Combine: a `PassthroughSubject` value that arrives with no demand is
/// dropped for this subscriber; for a `CurrentValueSubject` the subscriber is owed the
/// current value, which it receives (the latest, once) as soon as demand arrives.
///
/// The conduit keeps its subscriber (`downstream`) for its own lifetime: a `let`, so
/// that delivering a value retains nothing. Only the subject's channel holds the conduit
/// (the subscriber holds a ``SubjectSubscription``, which points at it weakly), and lets
/// go of it on completion and on cancel, after any delivery under way: the subscriber
/// is then released, also one that keeps its subscription, as Combine's subjects
/// release theirs.
final class SubjectConduit<Downstream: Subscriber>: SubjectConduitBase<Downstream.Input, Downstream.Failure>,
    Subscription, CustomStringConvertible
{
    typealias Core = SubjectCore<Downstream.Input, Downstream.Failure>
    typealias Completion = Subscribers.Completion<Downstream.Failure>

    let core: Core
    let downstream: Downstream
    /// Set once demand is unlimited, which it then stays: the fast path reads only this
    /// (and `owesCurrent`).
    let unlimited = Atomic<Bool>(false)
    /// Whether the subscriber is owed the current value (`CurrentValueSubject` only):
    /// initially, and after it missed a value for lack of demand. Written under `spin`,
    /// except that the unlimited fast path clears it alone: once demand is unlimited only
    /// the delivering thread changes it, so a reader that sees it stale at worst queues
    /// a replay that finds it cleared and does nothing.
    let owesCurrent: Atomic<Bool>
    let spin = CompactLock()
    /// Whether the subscriber has its subscription yet (see ``HandOver``). Declared next
    /// to the other one-byte fields, so that it takes no room of its own.
    let handOver = Atomic<UInt8>(HandOver.pending)
    /// Only touched with `spin` held. `@exclusivity(unchecked)`: `spin` orders it; with a
    /// bounded demand every value touches it.
    @exclusivity(unchecked) var demand = Subscribers.Demand.none
    /// A completion that arrived before the hand-over: written by the delivering thread
    /// before it publishes `HandOver.parked` (releasing), read by `attach` after it sees
    /// it (acquiring). Touched only in that race, so it keeps dynamic exclusivity checks.
    var earlyCompletion: Completion?

    init(core: Core, downstream: Downstream) {
        self.core = core
        self.downstream = downstream
        owesCurrent = Atomic(core.replaysCurrent)
        super.init(optionBits: SubjectConduitFlag.bit)
    }

    /// A sent value, from ``SubjectCore/call(_:_:)`` or ``SubjectCore/callValue(_:_:)``:
    /// as `receive(.value(value))`.
    override func receiveValue(_ value: Downstream.Input) {
        if unlimited.load(ordering: .relaxed) {
            if owesCurrent.load(ordering: .relaxed) { owesCurrent.store(false, ordering: .relaxed) }
            _ = downstream.receive(value)
            return
        }
        guard takeOne(replay: false) else { return }
        let more = downstream.receive(value)
        if more > .none { add(more) }
    }

    var description: String { core.replaysCurrent ? "CurrentValueSubject" : "PassthroughSubject" }

    override func receive(_ event: SubjectEvent<Downstream.Input, Downstream.Failure>) {
        switch event {
        case .value(let value):
            receiveValue(value)   // a queued value
        case .replay(let value):
            guard takeOne(replay: true) else { return }
            let more = downstream.receive(value)
            if more > .none { add(more) }
        case .completion(let completion):
            core.channel.remove(self)
            guard handOverIsDone(parking: completion) else { return }
            downstream.receive(completion: completion)
        }
    }

    /// Takes one unit of demand for a value; with none, remembers that the current value
    /// is owed (current-value subjects) and returns `false`. A replay goes through only
    /// while the current value is still owed.
    func takeOne(replay: Bool) -> Bool {
        spin.lock()
        defer { spin.unlock() }
        if replay, !owesCurrent.load(ordering: .relaxed) { return false }
        if demand == .none {
            if core.replaysCurrent { owesCurrent.store(true, ordering: .relaxed) }
            return false
        }
        demand -= 1
        owesCurrent.store(false, ordering: .relaxed)
        return true
    }

    /// Adds demand; returns whether the current value is owed and should be replayed.
    @discardableResult
    func add(_ more: Subscribers.Demand) -> Bool {
        spin.lock()
        demand += more
        if demand == .unlimited { unlimited.store(true, ordering: .relaxed) }
        let owes = owesCurrent.load(ordering: .relaxed)
        spin.unlock()
        return owes
    }

    /// Adds demand, delivers the current value if it is owed (`CurrentValueSubject`),
    /// then, the first time any subscriber asks, has the subject ask its upstreams (in
    /// Combine's order).
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        guard !isCancelled else { return }
        let core = self.core
        if add(demand) {
            core.channel.deliverCurrent(to: self) {
                core.completion == nil ? core.current.map { .replay($0) } : nil
            }
        }
        core.acknowledgeDemand()
    }

    func cancel() {
        if handOver.load(ordering: .relaxed) != HandOver.done {
            // Cancelled before `attach` finished handing over: drop a parked completion.
            var state = handOver.load(ordering: .acquiring)
            while state != HandOver.done, state != HandOver.dropped {
                let (exchanged, original) = handOver.compareExchange(
                    expected: state, desired: HandOver.dropped, ordering: .acquiringAndReleasing)
                if exchanged { break }
                state = original
            }
        }
        core.channel.remove(self)
    }

    // MARK: Hand-over

    /// Whether the completion may go to the subscriber now (it has its subscription);
    /// if not, parks it for `attach`.
    func handOverIsDone(parking completion: Completion) -> Bool {
        // The usual case: one load.
        if handOver.load(ordering: .acquiring) == HandOver.done { return true }
        earlyCompletion = completion
        let (parked, state) = handOver.compareExchange(
            expected: HandOver.pending, desired: HandOver.parked, ordering: .acquiringAndReleasing)
        if parked { return false }
        earlyCompletion = nil
        return state == HandOver.done
    }

    /// Called by `attach` once the subscriber has its subscription; returns a completion
    /// that arrived before, if the subscriber did not cancel since.
    func subscriptionHandedOver() -> Completion? {
        switch handOver.exchange(HandOver.done, ordering: .acquiringAndReleasing) {
        case HandOver.parked: return earlyCompletion.take()
        default: return nil
        }
    }
}

/// What a subject's channel sees of a ``SubjectConduit``: one that a sent value can be
/// given to as it is (``receiveValue(_:)``), by code that knows the subject's types but
/// not the subscriber's.
@usableFromInline
class SubjectConduitBase<Output, Failure: Error>: ChannelObserver<SubjectEvent<Output, Failure>> {
    /// Receives a sent value. Must be overridden.
    @usableFromInline
    func receiveValue(_ value: Output) {
        preconditionFailure("Bindings internal error: \(Self.self) does not override receiveValue(_:)")
    }
}

/// The bit of ``ChannelObserver/optionBits`` that marks a ``SubjectConduitBase`` on a
/// subject's channel (where no other observer uses it).
@usableFromInline
enum SubjectConduitFlag {
    @inlinable static var bit: UInt8 { 0x10 }
}

/// What a subject's subscriber holds as its subscription: demand and cancellation for
/// its ``SubjectConduit``, which it references weakly, so that a subscriber that keeps
/// its subscription forms no cycle with the conduit that holds it. Once the conduit is
/// gone (the subscription completed or was cancelled), requests and cancels do nothing.
final class SubjectSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    private weak let conduit: SubjectConduit<Downstream>?
    let description: String

    init(_ conduit: SubjectConduit<Downstream>) {
        self.conduit = conduit
        description = conduit.description
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        conduit?.request(demand)
    }

    func cancel() {
        conduit?.cancel()
    }
}

/// The states of a ``SubjectConduit``'s hand-over to its subscriber.
enum HandOver {
    /// `attach` has not yet returned from `receive(subscription:)`.
    static let pending: UInt8 = 0
    /// The subscriber has its subscription: events go straight to it.
    static let done: UInt8 = 1
    /// A completion arrived before the hand-over and waits in `earlyCompletion`.
    static let parked: UInt8 = 2
    /// Cancelled before the hand-over: nothing parked is delivered.
    static let dropped: UInt8 = 3
}
