import Synchronization

/// What a subject's channel carries.
@usableFromInline
enum SubjectEvent<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
}

/// The state that `PassthroughSubject` and `CurrentValueSubject` share: the channel, the
/// completion, the current value (for `CurrentValueSubject`) and the upstreams.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    // `@unchecked Sendable`: `completion` and `current` are guarded by `channel.lock`
    // (they are only touched inside the `accept`/`initial` closures that `Channel` runs
    // under it, or under an explicit `channel.lock`); `upstreams` by `upstreamLock`.

    @usableFromInline let channel = Channel<SubjectEvent<Output, Failure>>()
    @exclusivity(unchecked) @usableFromInline var completion: Subscribers.Completion<Failure>?
    @exclusivity(unchecked) @usableFromInline var current: Output?
    /// Whether subscribers start with the current value (`CurrentValueSubject`).
    @usableFromInline let replaysCurrent: Bool
    private let upstreamLock = Lock()
    private var upstreams: [any Subscription] = []

    @usableFromInline
    init(current: Output?) {
        self.current = current
        replaysCurrent = current != nil
    }

    deinit {
        for upstream in upstreams { upstream.cancel() }
    }

    @inlinable
    func send(_ value: Output) {
        channel.send(.value(value)) {
            guard completion == nil else { return false }
            if replaysCurrent { current = value }
            return true
        }
    }

    func send(completion: Subscribers.Completion<Failure>) {
        channel.send(.completion(completion)) {
            guard self.completion == nil else { return false }
            self.completion = completion
            return true
        }
    }

    func send(subscription: any Subscription) {
        upstreamLock.withLock { upstreams.append(subscription) }
        subscription.request(.unlimited)
    }

    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectConduit(core: self, downstream: subscriber)
        var finished: Subscribers.Completion<Failure>?
        let added = channel.add(conduit, accept: {
            finished = completion
            return finished == nil
        })
        if added {
            subscriber.receive(subscription: conduit)
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
/// dropped for this subscriber; a `CurrentValueSubject` one is remembered, and the
/// current value is delivered as soon as demand arrives.
final class SubjectConduit<Downstream: Subscriber>: ChannelObserver<SubjectEvent<Downstream.Input, Downstream.Failure>>,
    Subscription, CustomStringConvertible
{
    typealias Core = SubjectCore<Downstream.Input, Downstream.Failure>

    let core: Core
    let downstream: Downstream
    /// Set once demand is unlimited, which it then stays: the fast path reads only this.
    let unlimited = Atomic<Bool>(false)
    let spin = SpinLock()
    /// Guarded by `spin`.
    @exclusivity(unchecked) var demand = Subscribers.Demand.none
    /// Guarded by `spin`: the current value is owed as soon as there is demand.
    @exclusivity(unchecked) var owesCurrent: Bool

        init(core: Core, downstream: Downstream) {
        self.core = core
        self.downstream = downstream
        owesCurrent = core.replaysCurrent
    }

    var description: String { core.replaysCurrent ? "CurrentValueSubject" : "PassthroughSubject" }

    override func receive(_ event: SubjectEvent<Downstream.Input, Downstream.Failure>) {
        switch event {
        case .value(let value):
            if unlimited.load(ordering: .relaxed) {
                _ = downstream.receive(value)
                return
            }
            guard takeOne() else { return }
            let more = downstream.receive(value)
            if more > .none { add(more) }
        case .completion(let completion):
            core.channel.remove(self)
            downstream.receive(completion: completion)
        }
    }

    /// Takes one unit of demand; with none, remembers the value is owed (current-value
    /// subjects) and returns `false`.
        func takeOne() -> Bool {
        spin.lock()
        defer { spin.unlock() }
        if demand == .none {
            if core.replaysCurrent { owesCurrent = true }
            return false
        }
        demand -= 1
        owesCurrent = false
        return true
    }

    /// Adds demand; returns whether the current value is owed and should be sent now.
        @discardableResult
    func add(_ more: Subscribers.Demand) -> Bool {
        spin.lock()
        demand += more
        if demand == .unlimited { unlimited.store(true, ordering: .relaxed) }
        let owes = owesCurrent
        owesCurrent = false
        spin.unlock()
        return owes
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        guard !isCancelled, add(demand) else { return }
        let core = self.core
        core.channel.deliverCurrent(to: self) {
            core.completion == nil ? core.current.map { .value($0) } : nil
        }
    }

    func cancel() {
        core.channel.remove(self)
    }
}
