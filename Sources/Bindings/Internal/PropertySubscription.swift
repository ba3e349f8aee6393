import Synchronization

/// A Combine subscription to an observable value (`$property`, `publisher(for:)`,
/// ``ObservableValue``): it publishes the new value of each change, the old value of
/// each prior notice when `.prior` was asked for, and `.finished` when the observed
/// object is gone.
///
/// Registration: on the subscribing thread, right after the subscriber has its
/// subscription (``handOver()``), so that the initial value is read where
/// reading the model is safe (SPEC section 6), not on whatever thread first requests
/// (Combine lets any thread request).
///
/// Demand: values that arrive while the subscriber has no demand are dropped, as with
/// Combine's KVO publisher, except that with `.initial` the subscriber's first demand
/// gets the current value: the initial value, or a newer one set before that demand.
/// That value is kept (``pendingInitial``) and delivered through the channel, in order
/// with the other events (``PropertyEvent/flush``), so that a newer value never
/// arrives before it.
final class PropertySubscription<Downstream: Subscriber>: PropertyValueReceiver<Downstream.Input>, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Failure == Never {
    // `@unchecked Sendable` (the base classes document their own fields):
    // - `demand`, `requested`, `pendingInitial`: only touched with `lock` held.
    // - `unlimited`: atomic. `snapshot`: a `let`, read once, by the subscribing thread.
    // - `downstream`: a `let`; values reach it from the channel's delivering thread, one
    //   at a time; the completion (`sourceEnded()`) from the thread that closes the
    //   channel.
    // `@exclusivity(unchecked)` on the three `var`s: `lock` orders them; a bounded demand
    // touches them for every value.

    typealias Value = Downstream.Input

    private let downstream: Downstream
    /// The value as the publisher read it, for the initial value (see
    /// ``PropertyChannel/Snapshot``).
    private let snapshot: PropertyChannel<Value>.Snapshot?
    /// Set once demand is unlimited and no initial value is pending: then a value is
    /// delivered after this one load.
    private let unlimited = Atomic<Bool>(false)
    private let lock = CompactLock()
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    /// Whether the subscriber has requested anything yet.
    @exclusivity(unchecked) private var requested = false
    /// With `.initial`: the latest value that arrived before the first demand, owed to
    /// the subscriber; cleared when it is delivered, or when a newer value is.
    @exclusivity(unchecked) private var pendingInitial: Value?

    init(
        channel: PropertyChannel<Value>, options: KeyValueObservingOptions, downstream: Downstream,
        snapshot: PropertyChannel<Value>.Snapshot? = nil
    ) {
        self.downstream = downstream
        self.snapshot = snapshot
        super.init(channel: channel, options: options)
    }

    var description: String { "KeyValueObservingPublisher" }

    /// Gives the subscriber its subscription, then registers with the channel, on the
    /// subscribing thread (nothing is registered if the subscriber cancelled meanwhile).
    ///
    /// The subscriber is given a ``PropertySubscriptionHandle``, which refers to this
    /// object weakly: this object holds the subscriber, and the channel holds this object
    /// until a cancel or the end. Given this object itself, a subscriber that keeps its
    /// subscription kept it, and was kept by it, for good.
    func handOver() {
        downstream.receive(subscription: PropertySubscriptionHandle(self))
        register(snapshot: snapshot)
    }

    override func receive(_ event: PropertyEvent<Value>) {
        if event.isPrior {
            guard let old = event.old else {
                // Only the flush is a prior notice without an old value (`PropertyEvent.flush`).
                deliverPendingInitial()
                return
            }
            guard options.contains(.prior) else { return }
            deliver(old, isPrior: true)
        } else if let new = event.new {
            deliver(new, isPrior: false)
        }
    }

    /// A change's new value, given as it is by the channel (see ``PropertyValueReceiver``).
    override func receiveNew(_ value: Value) {
        deliver(value, isPrior: false)
    }

    /// Delivers a change's new value, or a prior notice's old value, within demand.
    private func deliver(_ value: Value, isPrior: Bool) {
        if unlimited.load(ordering: .relaxed) {
            _ = downstream.receive(value)
            return
        }
        let deliver: Bool = lock.withLock {
            if !requested {
                // Before the first demand: dropped, except that it is now the value owed.
                if options.contains(.initial), !isPrior { pendingInitial = value }
                return false
            }
            // A newer value supersedes one still owed.
            pendingInitial = nil
            return takeOne()
        }
        guard deliver else { return }
        let more = downstream.receive(value)
        if more > .none { add(more) }
    }

    /// The flush queued by the first demand: delivers the value owed, if it still is and
    /// there is demand for it, and opens the fast path if demand is unlimited.
    private func deliverPendingInitial() {
        let value: Value? = lock.withLock {
            defer {
                pendingInitial = nil
                if demand == .unlimited { unlimited.store(true, ordering: .relaxed) }
            }
            guard let value = pendingInitial, takeOne() else { return nil }
            return value
        }
        guard let value else { return }
        let more = downstream.receive(value)
        if more > .none { add(more) }
    }

    /// Under `lock`: takes one unit of demand for a value, if there is any.
    private func takeOne() -> Bool {
        guard demand > .none else { return false }
        demand -= 1
        return true
    }

    /// Under `lock`, once requested: opens the fast path if demand is unlimited and no
    /// value is owed (none can become owed after the first demand).
    private func openFastPathIfUnlimited() {
        if demand == .unlimited, pendingInitial == nil { unlimited.store(true, ordering: .relaxed) }
    }

    private func add(_ more: Subscribers.Demand) {
        lock.withLock {
            demand += more
            openFastPathIfUnlimited()
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let owesValue: Bool = lock.withLock {
            self.demand += demand
            let first = !requested
            requested = true
            openFastPathIfUnlimited()
            return first && pendingInitial != nil
        }
        guard owesValue else { return }
        // The first demand, with a value owed: it goes through the channel, after
        // whatever is being delivered now, so that no newer value comes before it.
        channel.deliverCurrent(to: self) { PropertyEvent.flush }
    }

    func cancel() { unregister() }

    override func sourceEnded() {
        downstream.receive(completion: .finished)
    }
}

/// The subscription that the subscriber of a ``PropertySubscription`` holds (see
/// ``PropertySubscription/handOver()``): it passes requests and the cancel on while the
/// subscription lives, and does nothing once it is gone (cancelled, or ended with the
/// observed object).
final class PropertySubscriptionHandle<Downstream: Subscriber>: Subscription, CustomStringConvertible
where Downstream.Failure == Never {
    private weak let subscription: PropertySubscription<Downstream>?

    init(_ subscription: PropertySubscription<Downstream>) {
        self.subscription = subscription
    }

    var description: String { "KeyValueObservingPublisher" }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        subscription?.request(demand)
    }

    func cancel() {
        subscription?.cancel()
    }
}
