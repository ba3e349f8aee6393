/// How a `combineLatest` of a given arity makes its output from the latest values, as
/// ``CombineLatestCore`` keeps them (``LatestValues``).
protocol CombineLatestValues {
    associatedtype Output
    /// The number of upstreams.
    static var count: Int { get }
    /// The tuple of the latest values, the value of upstream number `i` at index `i`;
    /// only once every upstream has sent one.
    static func combination(of values: [Any]) -> Output
}

/// The latest value of each upstream of a `combineLatest`, filled in by that upstream's
/// subscriber.
///
/// Held as `Any`: the core runs as generic code (its upstreams call it through their
/// `Subscriber` conformances), where optionals of the upstreams' generic types were looked
/// up at run time at each store and each check (with optionals: 399 ns a value of a
/// `combineLatest` of two properties into a `sink`; with `[Any]`, 116). An
/// `[Any]` is concrete; a value goes in with its type and comes out, in the combination,
/// with a cast that cannot fail.
struct LatestValues {
    private(set) var values: [Any]
    private var hasValue: [Bool]
    /// How many upstreams have sent no value yet.
    private var missing: Int

    init(count: Int) {
        values = Array(repeating: (), count: count)
        hasValue = Array(repeating: false, count: count)
        missing = count
    }

    /// Whether every upstream has sent a value.
    var isComplete: Bool { missing == 0 }

    mutating func store(_ value: Any, at index: Int) {
        values[index] = value
        if !hasValue[index] {
            hasValue[index] = true
            missing -= 1
        }
    }
}

/// The subscription behind `Publishers.CombineLatest`, `CombineLatest3` and
/// `CombineLatest4`: it keeps the latest value of each upstream and delivers their
/// combination.
///
/// Semantics:
/// - Nothing is combined until every upstream has sent a value; after that, each value
///   from any upstream produces the tuple of the latest values.
/// - Demand: the upstreams are asked for `.unlimited` at the downstream's first request
///   (nothing is requested before), so that the latest values stay current. While the
///   downstream has no demand, new values only update the latest values, and the newest
///   combination is delivered as soon as demand arrives: at most one combination is held,
///   and it is never stale. (Combine forwards each request to every upstream instead and
///   drops what arrives without demand, so with `PassthroughSubject` upstreams the latest
///   state could be lost; its documentation describes this one-element buffer per upstream.)
/// - Finishes once every upstream has finished, after delivering a held combination
///   (a consumer that requests one value at a time still receives the final state). An
///   upstream that finishes without a value means nothing is ever combined, but the
///   publisher still finishes when the others do.
/// - Fails at once with the first failure, cancelling the other upstreams; combinations
///   already accepted for delivery go first.
/// - Thread-safe: upstreams may send on different threads at once. Downstream calls are
///   serialised through a ``DeliveryQueue``; no lock is held while calling out.
final class CombineLatestCore<Values: CombineLatestValues, Downstream: Subscriber>: Subscription,
    CombineReflectable
where Downstream.Input == Values.Output {
    typealias Failure = Downstream.Failure
    typealias Event = DeliveryQueue<Values.Output, Failure>.Event

    private let lock = Lock()
    // Everything below is guarded by `lock`, which orders every access, so it is
    // `@exclusivity(unchecked)`: the operator's code runs generic (its upstreams call it
    // through their `Subscriber` conformances), where each access was checked at run time.
    /// `nil` once cancelled or once the completion is delivered, so that a downstream that
    /// keeps its subscription forms no lasting cycle with it. Boxed (see `SubscriberBox`).
    @exclusivity(unchecked) private var downstream: SubscriberBox<Downstream>?
    @exclusivity(unchecked) private var latest = LatestValues(count: Values.count)
    @exclusivity(unchecked) private var upstreams: [UpstreamSlot]
    @exclusivity(unchecked) private var finishedCount = 0
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    /// Whether the upstreams have been asked for values (at the first downstream request).
    @exclusivity(unchecked) private var upstreamsRequested = false
    /// Whether `latest` holds a combination the downstream has not received for lack of demand.
    @exclusivity(unchecked) private var held = false
    /// Whether the completion is decided (queued or delivered) or the subscription cancelled.
    @exclusivity(unchecked) private var terminated = false
    @exclusivity(unchecked) private var queue = DeliveryQueue<Values.Output, Failure>()

    init(downstream: Downstream) {
        self.downstream = SubscriberBox(downstream)
        upstreams = Array(repeating: .awaiting, count: Values.count)
    }

    var description: String { "CombineLatest" }

    /// The subscriber, the upstream subscriptions, the outstanding demand and the latest
    /// values, as Combine shows them.
    var customMirror: Mirror {
        lock.lock()
        let downstream = self.downstream?.subscriber
        let subscriptions = upstreams.map { upstream -> (any Subscription)? in
            if case .subscribed(let subscription) = upstream { subscription } else { nil }
        }
        let demand = self.demand
        let latest = self.latest
        lock.unlock()
        return Mirror(self, children: [
            "downstream": downstream as Any, "upstreamSubscriptions": subscriptions, "demand": demand,
            "buffers": latest,
        ])
    }

    /// The subscriber for upstream number `index`, which records each value with `store`.
    func side<Input>(_ index: Int, _ store: @escaping (inout LatestValues, Input) -> Void) -> CombiningSide<CombineLatestCore, Input> {
        CombiningSide(core: self, index: index, store: store)
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        self.demand += demand
        var toRequest: [any Subscription] = []
        if !upstreamsRequested {
            upstreamsRequested = true
            for case .subscribed(let subscription) in upstreams { toRequest.append(subscription) }
        }
        let first = lockedReleaseHeld()
        let downstream = first == nil ? nil : self.downstream
        lock.unlock()
        for subscription in toRequest { subscription.request(.unlimited) }
        if let first, let downstream { deliverEvents(first, to: downstream) }
    }

    func cancel() {
        lock.lock()
        terminated = true
        held = false
        let released = downstream
        downstream = nil
        let dropped = queue.removeAll()
        let subscriptions = upstreams.takeSubscriptions()
        lock.unlock()
        for subscription in subscriptions { subscription.cancel() }
        withExtendedLifetime((released, dropped)) {}
    }

    // MARK: Upstream events

    func receive(subscription: any Subscription, from index: Int) {
        lock.lock()
        guard !terminated, case .awaiting = upstreams[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreams[index] = .subscribed(subscription)
        let requested = upstreamsRequested
        lock.unlock()
        if requested { subscription.request(.unlimited) }
    }

    /// A value from upstream number `index`. The path of a value delivered at once
    /// touches no optional or event of a generic type (see `deliver(_:to:)`).
    func receive<Input>(_ input: Input, from index: Int, store: (inout LatestValues, Input) -> Void) {
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        store(&latest, input)
        guard latest.isComplete else {
            lock.unlock()
            return
        }
        if demand == .none {
            held = true
            lock.unlock()
            return
        }
        demand -= 1
        held = false
        let output = Values.combination(of: latest.values)
        if queue.isDelivering {
            lockedQueue(output)
            lock.unlock()
            return
        }
        queue.isDelivering = true
        let downstream = self.downstream
        lock.unlock()
        if let downstream { deliver(output, to: downstream) }
    }

    /// Under the lock: queues `output` for the thread that is delivering. Out of line, as
    /// are the other paths that make events: code running generic looks up the metadata
    /// of every type a function uses when it is entered, whichever branch it then takes.
    @inline(never)
    private func lockedQueue(_ output: Values.Output) {
        queue.append(.value(output))
    }

    func receive(completion: Subscribers.Completion<Failure>, from index: Int) {
        lock.lock()
        if case .finished = upstreams[index] {
            lock.unlock()
            return
        }
        let ended = upstreams[index]
        upstreams[index] = .finished
        guard !terminated else {
            lock.unlock()
            return
        }
        var others: [any Subscription] = []
        let first: Event?
        switch completion {
        case .finished:
            finishedCount += 1
            first = lockedFinishIfDone()
        case .failure:
            terminated = true
            held = false
            others = upstreams.takeSubscriptions()
            first = queue.push(.completion(completion)) ? .completion(completion) : nil
        }
        let downstream = first == nil ? nil : self.downstream
        lock.unlock()
        withExtendedLifetime(ended) {}
        for subscription in others { subscription.cancel() }
        if let first, let downstream { deliverEvents(first, to: downstream) }
    }

    // MARK: Delivery

    /// Delivers `value`, then whatever was queued meanwhile; the caller is the deliverer.
    /// When nothing was queued and no demand came back (a `sink`'s case), it makes no
    /// event.
    private func deliver(_ value: Values.Output, to downstream: SubscriberBox<Downstream>) {
        let more = downstream.subscriber.receive(value)
        lock.lock()
        let ended = queue.endTurnIfIdle(returned: more)
        lock.unlock()
        if !ended { deliverQueued(adding: more, to: downstream) }
    }

    /// After a value delivered by `deliver(_:to:)`: adds the demand it returned (which may
    /// release the held combination, or the completion), then delivers what is queued.
    @inline(never)
    private func deliverQueued(adding more: Subscribers.Demand, to downstream: SubscriberBox<Downstream>) {
        lock.lock()
        if more > .none, !terminated {
            demand += more
            _ = lockedReleaseHeld()   // queues it: this thread is delivering
        }
        let next = queue.next()
        lock.unlock()
        if let next { deliverEvents(next, to: downstream) }
    }

    /// Delivers `first`, then whatever was queued meanwhile; the caller is the deliverer.
    private func deliverEvents(_ first: Event, to downstream: SubscriberBox<Downstream>) {
        var event = first
        while true {
            var more = Subscribers.Demand.none
            var completed = false
            switch event {
            case .value(let value):
                more = downstream.subscriber.receive(value)
            case .completion(let completion):
                downstream.subscriber.receive(completion: completion)
                completed = true
            }
            lock.lock()
            if completed {
                // The parameter keeps the downstream alive until this call returns.
                self.downstream = nil
            } else if more > .none, !terminated {
                demand += more
                _ = lockedReleaseHeld()   // queues it: this thread is delivering
            }
            let next = queue.next()
            lock.unlock()
            guard let next else { return }
            event = next
        }
    }

    /// Under the lock: queues the held combination if there is demand for it, then the
    /// completion if it was waiting for it. Returns the event the caller must deliver
    /// itself, when it has become the deliverer.
    private func lockedReleaseHeld() -> Event? {
        var first: Event?
        if held, demand > .none, latest.isComplete {
            let output = Values.combination(of: latest.values)
            held = false
            demand -= 1
            if queue.push(.value(output)) { first = .value(output) }
        }
        if let finish = lockedFinishIfDone(), first == nil { first = finish }
        return first
    }

    /// Under the lock: queues `.finished` once every upstream has finished and nothing is
    /// held; returns it when the caller must deliver it.
    private func lockedFinishIfDone() -> Event? {
        guard !terminated, !held, finishedCount == upstreams.count else { return nil }
        terminated = true
        return queue.push(.completion(.finished)) ? .completion(.finished) : nil
    }
}

extension CombineLatestCore: CombiningCore {
    typealias Storage = LatestValues
}
