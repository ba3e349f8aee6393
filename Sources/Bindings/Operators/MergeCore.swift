/// The subscription behind `Merge`, `Merge3` … `Merge8`, `MergeMany` and `FlatMap`: it
/// merges the values of several inner publishers into one downstream.
///
/// Semantics (Combine's):
/// - Demand: while the downstream's demand is finite, each inner has at most one value
///   requested (`.max(1)` when it subscribes, again once that value is accepted); once the
///   downstream asks for `.unlimited`, every inner is asked for `.unlimited`. A value that
///   arrives while the downstream has no demand waits in a first-in first-out buffer (at
///   most one per inner) and is delivered, oldest first, as demand arrives.
/// - Finishes when every inner has finished and, for `flatMap`, the source too, after the
///   buffered values have been delivered.
/// - Fails at once with the first failure, dropping the buffer and cancelling every other
///   upstream; values already accepted for delivery go first.
/// - Thread-safe: inners may send on different threads at once. Downstream calls are
///   serialised through a ``DeliveryQueue``; no lock is held while calling out.
/// - What a careless inner sends before its subscription or after its completion is
///   dropped (a second completion included), so that it can neither end the merge early
///   nor free a slot of `flatMap`'s `maxPublishers` twice.
///
/// `flatMap` adds a *source*, the outer publisher whose values become inners: see
/// ``receiveSource(subscription:maxPublishers:)`` and ``addInner()``.
final class MergeCore<Downstream: Subscriber>: Subscription, CombineReflectable {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure
    typealias Event = DeliveryQueue<Input, Failure>.Event

    let description: String

    private let lock = Lock()
    // Everything below is guarded by `lock`, which orders every access, so it is
    // `@exclusivity(unchecked)`: the operator's code runs generic (its upstreams call it
    // through their `Subscriber` conformances), where each access was checked at run time.
    /// `nil` once cancelled or once the completion is delivered, so that a downstream that
    /// keeps its subscription forms no lasting cycle with it.
    @exclusivity(unchecked) private var downstream: SubscriberBox<Downstream>?
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    /// Whether the inners have been asked for `.unlimited` (demand became unlimited).
    @exclusivity(unchecked) private var innersUnlimited = false
    /// The subscribed inners that have not completed, by id.
    @exclusivity(unchecked) private var inners: [Int: any Subscription] = [:]
    /// The ids of the inners that have neither subscribed nor completed yet.
    @exclusivity(unchecked) private var unsubscribed: Set<Int>
    /// Inners that have not completed, subscribed or not yet.
    @exclusivity(unchecked) private var active: Int
    @exclusivity(unchecked) private var nextID: Int
    /// Whether no inner will be added any more (always, for `merge`).
    @exclusivity(unchecked) private var sourceFinished: Bool
    @exclusivity(unchecked) private var source: (any Subscription)?
    /// How many more publishers the source was asked for and has not sent: one it sends
    /// beyond that (a careless source) is dropped, so that no more than `maxPublishers`
    /// inners are ever subscribed at once.
    @exclusivity(unchecked) private var sourceDemand = Subscribers.Demand.none
    /// Whether the source is asked for one more publisher as each inner finishes
    /// (`flatMap` with a finite `maxPublishers`).
    private let replenishesSource: Bool
    /// Values that arrived without demand, oldest first; a delivered slot is emptied.
    @exclusivity(unchecked) private var buffer: [(id: Int, value: Input)?] = []
    @exclusivity(unchecked) private var bufferHead = 0
    /// Whether the completion is decided (queued or delivered) or the subscription cancelled.
    @exclusivity(unchecked) private var terminated = false
    @exclusivity(unchecked) private var queue = DeliveryQueue<Input, Failure>()

    /// A merge of `count` inners, with the ids `0..<count`.
    init(downstream: Downstream, count: Int, description: String) {
        self.downstream = SubscriberBox(downstream)
        self.description = description
        active = count
        nextID = count
        unsubscribed = Set(0..<count)
        sourceFinished = true
        replenishesSource = false
    }

    /// A merge whose inners a source adds (`flatMap`).
    init(downstream: Downstream, replenishesSource: Bool, description: String) {
        self.downstream = SubscriberBox(downstream)
        self.description = description
        active = 0
        nextID = 0
        unsubscribed = []
        sourceFinished = false
        self.replenishesSource = replenishesSource
    }

    /// The subscriber for the inner with `id`.
    func side(_ id: Int) -> Side { Side(core: self, id: id) }

    /// Finishes at once when there is nothing to merge (`MergeMany` of no publisher).
    func finishIfEmpty() {
        lock.lock()
        let finishes = lockedFinishIfDone()
        let downstream = finishes ? self.downstream : nil
        lock.unlock()
        if let downstream { deliverFinished(to: downstream) }
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        var requests = InnerRequests()
        let first = lockedAddDemand(demand, &requests)
        let downstream = first == nil ? nil : self.downstream
        lock.unlock()
        requests.perform()
        if let first, let downstream { deliverEvents(first, to: downstream) }
    }

    func cancel() {
        lock.lock()
        terminated = true
        sourceFinished = true
        let released = downstream
        downstream = nil
        let dropped = queue.removeAll()
        let subscriptions = lockedTakeSubscriptions(except: nil)
        let droppedBuffer = lockedTakeBuffer()
        lock.unlock()
        for subscription in subscriptions { subscription.cancel() }
        withExtendedLifetime((released, dropped, droppedBuffer)) {}
    }

    // MARK: Inner events

    fileprivate func receive(subscription: any Subscription, from id: Int) {
        lock.lock()
        guard !terminated, unsubscribed.remove(id) != nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        inners[id] = subscription
        let demand: Subscribers.Demand = innersUnlimited ? .unlimited : .max(1)
        lock.unlock()
        subscription.request(demand)
    }

    /// Returns the inner's new demand: one more value once this one is accepted.
    fileprivate func receive(_ input: Input, from id: Int) -> Subscribers.Demand {
        lock.lock()
        // Only from a subscribed inner that has not completed.
        guard !terminated, inners[id] != nil else {
            lock.unlock()
            return .none
        }
        if demand == .none {
            lockedBuffer(input, from: id)
            lock.unlock()
            return .none
        }
        demand -= 1
        let replenish: Subscribers.Demand = innersUnlimited ? .none : .max(1)
        if queue.isDelivering {
            lockedQueue(input)
            lock.unlock()
            return replenish
        }
        queue.isDelivering = true
        let downstream = self.downstream
        lock.unlock()
        if let downstream { deliver(input, to: downstream) }
        return replenish
    }

    /// Under the lock: keeps `input` until there is demand for it. Out of line (see
    /// `lockedQueue(_:)`): the buffer's element is a tuple of a generic type.
    @inline(never)
    private func lockedBuffer(_ input: Input, from id: Int) {
        buffer.append((id, input))
    }

    /// Under the lock: queues `input` for the thread that is delivering. Out of line, as
    /// are the other paths that make events: code running generic looks up the metadata
    /// of every type a function uses when it is entered, whichever branch it then takes.
    @inline(never)
    private func lockedQueue(_ input: Input) {
        queue.append(.value(input))
    }

    fileprivate func receive(completion: Subscribers.Completion<Failure>, from id: Int) {
        guard case .finished = completion else {
            fail(with: completion, fromInner: id)
            return
        }
        lock.lock()
        guard !terminated, let ended = lockedEnd(id) else {
            lock.unlock()
            return
        }
        active -= 1
        let finishes = lockedFinishIfDone()
        var source: (any Subscription)?
        if replenishesSource, !terminated, let live = self.source {
            source = live
            sourceDemand += 1
        }
        let downstream = finishes ? self.downstream : nil
        lock.unlock()
        withExtendedLifetime(ended) {}
        source?.request(.max(1))
        if let downstream { deliverFinished(to: downstream) }
    }

    // MARK: Source events (flatMap)

    /// Keeps the source's subscription and asks it for `maxPublishers` publishers.
    func receiveSource(subscription: any Subscription, maxPublishers: Subscribers.Demand) {
        lock.lock()
        guard !terminated, !sourceFinished, source == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        source = subscription
        sourceDemand = maxPublishers
        lock.unlock()
        if maxPublishers > .none { subscription.request(maxPublishers) }
    }

    /// Reserves the id of a new inner, or returns `nil` when the merge is over or the
    /// source sent a publisher it was not asked for (which is dropped).
    func addInner() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard !terminated, !sourceFinished, sourceDemand > .none else { return nil }
        sourceDemand -= 1
        let id = nextID
        nextID += 1
        active += 1
        unsubscribed.insert(id)
        return id
    }

    func receiveSource(completion: Subscribers.Completion<Failure>) {
        guard case .finished = completion else {
            fail(with: completion, fromInner: nil)
            return
        }
        lock.lock()
        guard !sourceFinished else {
            lock.unlock()
            return
        }
        let ended = source
        source = nil
        sourceFinished = true
        let finishes = lockedFinishIfDone()
        let downstream = finishes ? self.downstream : nil
        lock.unlock()
        withExtendedLifetime(ended) {}
        if let downstream { deliverFinished(to: downstream) }
    }

    // MARK: Delivery

    /// Delivers `failure` at once and cancels every upstream but the one that failed
    /// (`fromInner` is `nil` when the source failed).
    private func fail(with failure: Subscribers.Completion<Failure>, fromInner failed: Int?) {
        lock.lock()
        // A careless upstream's failure after its completion is dropped.
        let ended: (any Subscription)?
        if let failed {
            guard !terminated, let subscription = lockedEnd(failed) else {
                lock.unlock()
                return
            }
            ended = subscription
        } else {
            guard !terminated, !sourceFinished else {
                lock.unlock()
                return
            }
            ended = source
        }
        terminated = true
        if failed == nil {
            source = nil
            sourceFinished = true
        }
        let others = lockedTakeSubscriptions(except: failed)
        let droppedBuffer = lockedTakeBuffer()
        let mustDeliver = queue.push(.completion(failure))
        let downstream = mustDeliver ? self.downstream : nil
        lock.unlock()
        for subscription in others { subscription.cancel() }
        withExtendedLifetime((ended, droppedBuffer)) {}
        if let downstream { deliverEvents(.completion(failure), to: downstream) }
    }

    /// Delivers `value`, then whatever was queued meanwhile; the caller is the deliverer.
    /// When nothing was queued and no demand came back (a `sink`'s case), it makes no
    /// event.
    private func deliver(_ value: Input, to downstream: SubscriberBox<Downstream>) {
        let more = downstream.subscriber.receive(value)
        lock.lock()
        let ended = queue.endTurnIfIdle(returned: more)
        lock.unlock()
        if !ended { deliverQueued(adding: more, to: downstream) }
    }

    /// After a value delivered by `deliver(_:to:)`: adds the demand it returned (which may
    /// release buffered values, or the completion), then delivers what is queued.
    @inline(never)
    private func deliverQueued(adding more: Subscribers.Demand, to downstream: SubscriberBox<Downstream>) {
        var requests = InnerRequests()
        lock.lock()
        if more > .none, !terminated {
            _ = lockedAddDemand(more, &requests)   // queues: this thread is delivering
        }
        let next = queue.next()
        lock.unlock()
        requests.perform()
        if let next { deliverEvents(next, to: downstream) }
    }

    /// Delivers `.finished`, then whatever was queued meanwhile; the caller is the
    /// deliverer. Out of line, so that its callers (an inner's completion, each value of
    /// `flatMap`) make no event and look up no metadata for one.
    @inline(never)
    private func deliverFinished(to downstream: SubscriberBox<Downstream>) {
        deliverEvents(.completion(.finished), to: downstream)
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
            var requests = InnerRequests()
            lock.lock()
            if completed {
                // The parameter keeps the downstream alive until this call returns.
                self.downstream = nil
            } else if more > .none, !terminated {
                _ = lockedAddDemand(more, &requests)   // queues: this thread is delivering
            }
            let next = queue.next()
            lock.unlock()
            requests.perform()
            guard let next else { return }
            event = next
        }
    }

    /// Under the lock: adds demand, queues buffered values while there is demand for them
    /// (noting their inners to ask for one more each), upgrades the inners to `.unlimited`
    /// when the demand becomes unlimited, and queues `.finished` if it was only waiting
    /// for the buffer. Returns the event the caller must deliver, if it became the deliverer.
    private func lockedAddDemand(_ more: Subscribers.Demand, _ requests: inout InnerRequests) -> Event? {
        demand += more
        var first: Event?
        while demand > .none, bufferHead < buffer.count {
            var slot: (id: Int, value: Input)?
            swap(&slot, &buffer[bufferHead])
            bufferHead += 1
            guard let (id, value) = slot else { continue }
            demand -= 1
            if queue.push(.value(value)) { first = .value(value) }
            if !innersUnlimited, let inner = inners[id] { requests.replenish(inner) }
        }
        if bufferHead == buffer.count, bufferHead > 0 {
            buffer.removeAll(keepingCapacity: true)   // every slot is empty already
            bufferHead = 0
        }
        if demand == .unlimited, !innersUnlimited {
            innersUnlimited = true
            requests.unlimited = Array(inners.values)
        }
        if lockedFinishIfDone(), first == nil { first = .completion(.finished) }
        return first
    }

    /// Under the lock: queues `.finished` once nothing more can come and nothing is
    /// buffered; returns whether the caller must deliver it (it became the deliverer).
    private func lockedFinishIfDone() -> Bool {
        guard !terminated, sourceFinished, active == 0, bufferHead == buffer.count else { return false }
        terminated = true
        return lockedQueueFinished()
    }

    /// Under the lock: queues `.finished`; whether the caller must deliver it. Out of line:
    /// see `lockedQueue(_:)`.
    @inline(never)
    private func lockedQueueFinished() -> Bool {
        queue.push(.completion(.finished))
    }

    /// Under the lock: forgets the inner `id` as it completes, and returns its
    /// subscription (`.some(nil)` if it had not subscribed yet), or `nil` if it had
    /// completed already.
    private func lockedEnd(_ id: Int) -> (any Subscription)?? {
        if let subscription = inners.removeValue(forKey: id) { return .some(subscription) }
        if unsubscribed.remove(id) != nil { return .some(nil) }
        return nil
    }

    /// Under the lock: the inners' subscriptions but `excluded`'s, and the source's; all are forgotten.
    private func lockedTakeSubscriptions(except excluded: Int?) -> [any Subscription] {
        var taken: [any Subscription] = []
        for (id, subscription) in inners where id != excluded { taken.append(subscription) }
        inners = [:]
        unsubscribed = []
        if let source { taken.append(source) }
        source = nil
        return taken
    }

    /// Under the lock: the buffer, emptied, for the caller to release after unlocking.
    private func lockedTakeBuffer() -> [(id: Int, value: Input)?] {
        var taken: [(id: Int, value: Input)?] = []
        swap(&taken, &buffer)
        bufferHead = 0
        return taken
    }

    // MARK: Side

    /// The subscriber to one inner: forwards its events, tagged with its id.
    struct Side: Subscriber, CombineReflectable {
        typealias Input = Downstream.Input
        typealias Failure = Downstream.Failure

        let core: MergeCore
        let id: Int
        let combineIdentifier = CombineIdentifier()

        var description: String { core.description }

        func receive(subscription: any Subscription) {
            core.receive(subscription: subscription, from: id)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            core.receive(input, from: id)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            core.receive(completion: completion, from: id)
        }
    }

    // MARK: Requests

    /// The requests a ``MergeCore`` makes of its inners after unlocking. The usual case, one
    /// inner asked for one more value, needs no allocation.
    struct InnerRequests {
        private var first: (any Subscription)?
        private var rest: [any Subscription] = []
        /// Inners to ask for `.unlimited`.
        var unlimited: [any Subscription] = []

        /// Notes that `inner` is to be asked for one more value.
        mutating func replenish(_ inner: any Subscription) {
            if first == nil { first = inner } else { rest.append(inner) }
        }

        func perform() {
            first?.request(.max(1))
            for inner in rest { inner.request(.max(1)) }
            for inner in unlimited { inner.request(.unlimited) }
        }
    }
}
