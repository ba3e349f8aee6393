/// The values of each upstream of a `zip` that have not been paired yet, as ``ZipCore``
/// keeps them: one first-in first-out buffer per upstream, filled by that upstream's
/// subscriber.
protocol ZipBuffers {
    associatedtype Output
    /// The number of upstreams.
    static var count: Int { get }
    /// Empty buffers.
    init()
    /// Whether upstream number `index` has no value waiting.
    func isEmpty(_ index: Int) -> Bool
    /// Removes the oldest value of every upstream and returns them as one tuple; only
    /// called when no buffer is empty.
    mutating func removeFirst() -> Output
}

extension ZipBuffers {
    /// Whether some upstream has no value waiting, so that no tuple can be formed now.
    func anyEmpty() -> Bool {
        for index in 0..<Self.count where isEmpty(index) { return true }
        return false
    }
}

/// A first-in first-out queue of one upstream's values. A removed slot is emptied at once,
/// so that a value is released as soon as it is paired, not when the queue drains.
///
/// The values are held as `Any`: `ZipCore` runs as generic code (its upstreams call it
/// through their `Subscriber` conformances), where an array of `Value?` looked up the
/// metadata of its element and of the array at each append and removal. An `[Any]` is
/// concrete; a value goes in with its type and comes out with a cast that cannot fail.
struct ZipBuffer<Value> {
    private var slots: [Any] = []
    private var head = 0

    var isEmpty: Bool { head == slots.count }

    mutating func append(_ value: Value) {
        slots.append(value)
    }

    /// The oldest value; the queue must not be empty.
    mutating func removeFirst() -> Value {
        var value: Any = ()
        swap(&value, &slots[head])
        head += 1
        if head == slots.count {
            // Every slot is empty: the storage is kept for reuse.
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= slots.count {
            // A long-lived backlog: drop the emptied front now and then, so that the
            // storage does not grow with everything ever sent.
            slots.removeFirst(head)
            head = 0
        }
        // Cannot fail: `append(_:)` stored a `Value`.
        return (consume value) as! Value
    }
}

/// The subscription behind `Publishers.Zip`, `Zip3` and `Zip4`: it pairs the n-th value of
/// every upstream.
///
/// Semantics (Combine's):
/// - Each upstream's values wait in a buffer of their own; as soon as every buffer holds a
///   value and the downstream has demand, the oldest value of each is taken out and
///   delivered as one tuple.
/// - Demand: each tuple delivered consumes one unit of the downstream's demand. Every
///   request of the downstream, and the demand it returns from `receive(_:)`, is
///   forwarded to every upstream that has not finished (an upstream that subscribes later
///   is asked for all of it at once), so that each upstream is asked for as many values
///   as the downstream asked for tuples. An upstream that sends more than it was asked
///   for has its values kept until demand comes; nothing is delivered beyond the demand.
/// - Finishes as soon as an upstream has finished and its buffer is empty (its values can
///   no longer pair), after the tuples already accepted for delivery, cancelling the
///   other upstreams and dropping what they buffered. An upstream that finishes with
///   values still buffered lets them pair first, as demand allows.
/// - Fails at once with the first failure, cancelling the other upstreams and dropping
///   the buffers; tuples already accepted for delivery go first.
/// - Thread-safe: upstreams may send on different threads at once. Downstream calls are
///   serialised through a ``DeliveryQueue``; no lock is held while calling out.
final class ZipCore<Buffers: ZipBuffers, Downstream: Subscriber>: Subscription, CombineReflectable
where Downstream.Input == Buffers.Output {
    typealias Failure = Downstream.Failure
    typealias Event = DeliveryQueue<Buffers.Output, Failure>.Event

    private let lock = Lock()
    // Everything below is guarded by `lock`, which orders every access, so it is
    // `@exclusivity(unchecked)`: the operator's code runs generic (its upstreams call it
    // through their `Subscriber` conformances), where each access was checked at run time.
    /// `nil` once cancelled or once the completion is delivered, so that a downstream that
    /// keeps its subscription forms no lasting cycle with it.
    @exclusivity(unchecked) private var downstream: SubscriberBox<Downstream>?
    @exclusivity(unchecked) private var buffers = Buffers()
    @exclusivity(unchecked) private var upstreams: [UpstreamSlot]
    /// Whether some upstream has finished (before the end): only then can a value end
    /// the zip, so only then does a value take the path that checks.
    @exclusivity(unchecked) private var anUpstreamFinished = false
    /// The downstream's outstanding demand: how many more tuples it may receive.
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    /// Everything the downstream has asked for so far, which each upstream is asked for:
    /// an upstream that subscribes late is asked for all of it at once.
    @exclusivity(unchecked) private var forwarded = Subscribers.Demand.none
    /// Whether the completion is decided (queued or delivered) or the subscription cancelled.
    @exclusivity(unchecked) private var terminated = false
    @exclusivity(unchecked) private var queue = DeliveryQueue<Buffers.Output, Failure>()

    init(downstream: Downstream) {
        self.downstream = SubscriberBox(downstream)
        upstreams = Array(repeating: .awaiting, count: Buffers.count)
    }

    var description: String { "Zip" }

    /// The subscriber for upstream number `index`, which buffers each value with `store`.
    func side<Input>(_ index: Int, _ store: @escaping (inout Buffers, Input) -> Void) -> CombiningSide<ZipCore, Input> {
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
        forwarded += demand
        let subscriptions = lockedLiveSubscriptions()
        var cancelled: [any Subscription] = []
        var dropped = Buffers()
        let first = lockedPair(cancelling: &cancelled, dropping: &dropped)
        let downstream = first == nil ? nil : self.downstream
        lock.unlock()
        // Ask first: a value that an upstream sends from inside its `request` is queued
        // behind `first`, which this thread delivers next.
        for subscription in subscriptions { subscription.request(demand) }
        for subscription in cancelled { subscription.cancel() }
        withExtendedLifetime(dropped) {}
        if let first, let downstream { deliver(first, to: downstream) }
    }

    func cancel() {
        lock.lock()
        terminated = true
        let released = downstream
        downstream = nil
        let dropped = queue.removeAll()
        var droppedBuffers = Buffers()
        swap(&droppedBuffers, &buffers)
        let subscriptions = upstreams.takeSubscriptions()
        lock.unlock()
        for subscription in subscriptions { subscription.cancel() }
        withExtendedLifetime((released, dropped, droppedBuffers)) {}
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
        let forwarded = self.forwarded
        lock.unlock()
        if forwarded > .none { subscription.request(forwarded) }
    }

    func receive<Input>(_ input: Input, from index: Int, store: (inout Buffers, Input) -> Void) {
        lock.lock()
        // Only from a subscribed upstream: what a careless one sends before its
        // subscription, after its completion or after the end is dropped.
        guard !terminated, case .subscribed = upstreams[index] else {
            lock.unlock()
            return
        }
        store(&buffers, input)
        // The usual cases make no event (code running generic looks up the metadata of
        // each type a function touches, an event's and its optional's included): with no
        // upstream finished, a value cannot end the zip, and it forms at most one tuple
        // (every earlier call paired all it could), delivered at once unless another
        // thread is delivering.
        if !anUpstreamFinished {
            if demand == .none || buffers.anyEmpty() {
                lock.unlock()
                return
            }
            if !queue.isDelivering, let downstream {
                demand -= 1
                let tuple = buffers.removeFirst()
                queue.isDelivering = true
                lock.unlock()
                deliver(tuple: tuple, to: downstream)
                return
            }
        }
        pairAndDeliver()
    }

    /// After a value was stored, on the paths that may make events: pairs what it can,
    /// finishes if an upstream can no longer pair, and delivers if this thread became the
    /// deliverer. Called under the lock, which it releases.
    @inline(never)
    private func pairAndDeliver() {
        var cancelled: [any Subscription] = []
        var dropped = Buffers()
        let first = lockedPair(cancelling: &cancelled, dropping: &dropped)
        let downstream = first == nil ? nil : self.downstream
        lock.unlock()
        for subscription in cancelled { subscription.cancel() }
        withExtendedLifetime(dropped) {}
        if let first, let downstream { deliver(first, to: downstream) }
    }

    func receive(completion: Subscribers.Completion<Failure>, from index: Int) {
        lock.lock()
        if case .finished = upstreams[index] {
            lock.unlock()
            return
        }
        let ended = upstreams[index]
        upstreams[index] = .finished
        anUpstreamFinished = true
        guard !terminated else {
            lock.unlock()
            withExtendedLifetime(ended) {}
            return
        }
        var cancelled: [any Subscription] = []
        var dropped = Buffers()
        let first: Event?
        switch completion {
        case .finished:
            first = lockedFinishIfDone(cancelling: &cancelled, dropping: &dropped)
        case .failure:
            first = lockedTerminate(with: completion, cancelling: &cancelled, dropping: &dropped)
        }
        let downstream = first == nil ? nil : self.downstream
        lock.unlock()
        withExtendedLifetime(ended) {}
        for subscription in cancelled { subscription.cancel() }
        withExtendedLifetime(dropped) {}
        if let first, let downstream { deliver(first, to: downstream) }
    }

    // MARK: Delivery

    /// Delivers `tuple`, then whatever was queued meanwhile; the caller is the deliverer.
    /// When nothing was queued and no demand came back (a `sink`'s case), it makes no
    /// event.
    private func deliver(tuple: Buffers.Output, to downstream: SubscriberBox<Downstream>) {
        let more = downstream.subscriber.receive(tuple)
        lock.lock()
        let ended = queue.endTurnIfIdle(returned: more)
        lock.unlock()
        if !ended { deliverQueued(adding: more, to: downstream) }
    }

    /// After a tuple delivered by `deliver(tuple:to:)`: adds the demand it returned, as a
    /// request does, then delivers what is queued.
    @inline(never)
    private func deliverQueued(adding more: Subscribers.Demand, to downstream: SubscriberBox<Downstream>) {
        lock.lock()
        let next = lockedAfterDelivery(adding: more, completed: false)
        lock.unlock()
        next.perform()
        if let event = next.event { deliver(event, to: downstream) }
    }

    /// Delivers `first`, then whatever was queued meanwhile; the caller is the deliverer.
    /// Demand that the downstream returns is forwarded to every live upstream, as a
    /// request does.
    private func deliver(_ first: Event, to downstream: SubscriberBox<Downstream>) {
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
            let next = lockedAfterDelivery(adding: more, completed: completed)
            lock.unlock()
            next.perform()
            guard let following = next.event else { return }
            event = following
        }
    }

    /// Under the lock, after a delivery: lets go of the downstream if it was the
    /// completion, or adds the demand the downstream returned (forwarded to the live
    /// upstreams, and pairing what it allows, queued: this thread delivers); returns the
    /// next event to deliver, and what to do after unlocking.
    private func lockedAfterDelivery(adding more: Subscribers.Demand, completed: Bool) -> AfterDelivery {
        var after = AfterDelivery(more: more)
        if completed {
            // The caller's parameter keeps the downstream alive until it returns.
            downstream = nil
        } else if more > .none, !terminated {
            demand += more
            forwarded += more
            after.subscriptions = lockedLiveSubscriptions()
            _ = lockedPair(cancelling: &after.cancelled, dropping: &after.dropped)
        }
        after.event = queue.next()
        return after
    }

    /// What a deliverer does after unlocking: ask the live upstreams for the demand the
    /// downstream returned, cancel the upstreams a completion ended, release the buffers
    /// it dropped, and deliver the next event.
    private struct AfterDelivery {
        let more: Subscribers.Demand
        var subscriptions: [any Subscription] = []
        var cancelled: [any Subscription] = []
        var dropped = Buffers()
        var event: Event?

        init(more: Subscribers.Demand) { self.more = more }

        func perform() {
            for subscription in subscriptions { subscription.request(more) }
            for subscription in cancelled { subscription.cancel() }
        }
    }

    /// Under the lock: queues a tuple for each unit of demand while every buffer holds a
    /// value, then `.finished` if an upstream can no longer pair. Returns the event the
    /// caller must deliver itself, when it has become the deliverer.
    private func lockedPair(cancelling cancelled: inout [any Subscription], dropping dropped: inout Buffers) -> Event? {
        var first: Event?
        while demand > .none, !buffers.anyEmpty() {
            demand -= 1
            let tuple = buffers.removeFirst()
            if queue.push(.value(tuple)) { first = .value(tuple) }
        }
        if let finish = lockedFinishIfDone(cancelling: &cancelled, dropping: &dropped), first == nil {
            first = finish
        }
        return first
    }

    /// Under the lock: queues `.finished` once an upstream has finished with nothing left
    /// to pair; returns it when the caller must deliver it.
    private func lockedFinishIfDone(
        cancelling cancelled: inout [any Subscription], dropping dropped: inout Buffers
    ) -> Event? {
        guard !terminated else { return nil }
        for index in upstreams.indices {
            if case .finished = upstreams[index], buffers.isEmpty(index) {
                return lockedTerminate(with: .finished, cancelling: &cancelled, dropping: &dropped)
            }
        }
        return nil
    }

    /// Under the lock: decides the completion, hands the live upstreams to the caller to
    /// cancel and the buffers to release after unlocking, and queues `completion`;
    /// returns it when the caller must deliver it.
    private func lockedTerminate(
        with completion: Subscribers.Completion<Failure>,
        cancelling cancelled: inout [any Subscription], dropping dropped: inout Buffers
    ) -> Event? {
        terminated = true
        cancelled += upstreams.takeSubscriptions()
        swap(&dropped, &buffers)
        return queue.push(.completion(completion)) ? .completion(completion) : nil
    }

    /// Under the lock: the subscriptions of the upstreams that have not finished.
    private func lockedLiveSubscriptions() -> [any Subscription] {
        var live: [any Subscription] = []
        for case .subscribed(let subscription) in upstreams { live.append(subscription) }
        return live
    }
}

extension ZipCore: CombiningCore {
    typealias Storage = Buffers
}
