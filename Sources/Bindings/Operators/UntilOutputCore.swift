/// The subscription behind `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)`: it
/// republishes an upstream, and watches another publisher (the *other*) for its first
/// value, which opens the stream (`drop`) or ends it (`prefix`).
///
/// Semantics (Combine's):
/// - Subscribes to the other first, asking it for one value, then to the upstream
///   (unless the other has already ended the stream).
/// - Demand passes through to the upstream (a request made before its subscription is
///   kept for it, `.none` included). Each upstream value consumes one unit of it, also a
///   value that `drop` drops before the other's value, as in Combine; values beyond the
///   demand are dropped.
/// - `drop`: upstream values are dropped until the other publishes; then the other is
///   cancelled and the upstream's values pass. If the other completes first (finished or
///   failed), that completion ends the stream and the upstream is cancelled.
/// - `prefix`: upstream values pass until the other publishes; then the stream finishes
///   and both are cancelled. The other's completion is ignored.
/// - The upstream's completion is passed on, and the other cancelled.
/// - Thread-safe: the other may publish on another thread while the upstream sends.
///   Downstream calls are serialised through a ``DeliveryQueue``; no lock is held while
///   calling out.
final class UntilOutputInner<OtherOutput, OtherFailure: Error, Downstream: Subscriber>: Subscription,
    CombineReflectable
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure
    typealias Event = DeliveryQueue<Output, Failure>.Event

    /// What the other's first value does.
    enum Mode {
        /// Opens the stream (`drop(untilOutputFrom:)`); the other's completion before its
        /// first value ends the stream, converted by `forward`.
        case drop(forward: (Subscribers.Completion<OtherFailure>) -> Subscribers.Completion<Failure>)
        /// Ends the stream (`prefix(untilOutputFrom:)`); the other's completion is ignored.
        case prefix
    }

    private enum Link {
        case awaiting
        case subscribed(any Subscription)
        case done

        var subscription: (any Subscription)? {
            if case .subscribed(let subscription) = self { subscription } else { nil }
        }
    }

    let description: String
    private let mode: Mode
    private let lock = Lock()
    // Everything below is guarded by `lock`.
    /// `nil` once cancelled or once the completion is delivered, so that a downstream that
    /// keeps its subscription forms no lasting cycle with it.
    private var downstream: Downstream?
    private var upstream = Link.awaiting
    private var other = Link.awaiting
    /// Whether the other has published (`drop`: the upstream's values now pass).
    private var triggered = false
    /// What the downstream asked for and the upstream has not sent.
    private var demand = Subscribers.Demand.none
    /// Whether the completion is decided (queued or delivered) or the subscription cancelled.
    private var terminated = false
    private var queue = DeliveryQueue<Output, Failure>()

    init(downstream: Downstream, mode: Mode, description: String) {
        self.downstream = downstream
        self.mode = mode
        self.description = description
    }

    /// Subscribes to the other, then, unless it has ended the stream already, to the
    /// upstream.
    func subscribe<Upstream: Publisher, Other: Publisher>(upstream: Upstream, other: Other)
    where Upstream.Output == Output, Upstream.Failure == Failure,
          Other.Output == OtherOutput, Other.Failure == OtherFailure {
        other.subscribe(OtherSide(inner: self))
        let ended = lock.withLock { terminated }
        if !ended { upstream.subscribe(UpstreamSide(inner: self)) }
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        self.demand += demand
        let subscription = upstream.subscription
        lock.unlock()
        // `.none` passes through, as in Combine (the upstream decides).
        subscription?.request(demand)
    }

    func cancel() {
        lock.lock()
        terminated = true
        let subscriptions = (upstream.subscription, other.subscription)
        upstream = .done
        other = .done
        let released = downstream
        downstream = nil
        let dropped = queue.removeAll()
        lock.unlock()
        subscriptions.0?.cancel()
        subscriptions.1?.cancel()
        withExtendedLifetime((released, dropped)) {}
    }

    // MARK: Upstream events

    fileprivate func receiveUpstream(subscription: any Subscription) {
        lock.lock()
        guard !terminated, case .awaiting = upstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = .subscribed(subscription)
        let demand = self.demand
        lock.unlock()
        if demand > .none { subscription.request(demand) }
    }

    fileprivate func receiveUpstream(_ input: Output) -> Subscribers.Demand {
        lock.lock()
        // Only what was asked for, from the subscribed upstream, before the end.
        guard !terminated, case .subscribed = upstream, demand > .none else {
            lock.unlock()
            return .none
        }
        demand -= 1
        if case .drop = mode, !triggered {
            lock.unlock()
            return .none
        }
        let mustDeliver = queue.push(.value(input))
        let downstream = mustDeliver ? self.downstream : nil
        lock.unlock()
        guard let downstream else { return .none }
        return deliver(.value(input), to: downstream)
    }

    fileprivate func receiveUpstream(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed = upstream else {
            lock.unlock()
            return
        }
        let ended = upstream
        upstream = .done
        guard !terminated else {
            lock.unlock()
            withExtendedLifetime(ended) {}
            return
        }
        terminated = true
        let cancelled = other.subscription
        other = .done
        let mustDeliver = queue.push(.completion(completion))
        let downstream = mustDeliver ? self.downstream : nil
        lock.unlock()
        withExtendedLifetime(ended) {}
        cancelled?.cancel()
        if let downstream { _ = deliver(.completion(completion), to: downstream) }
    }

    // MARK: Other events

    fileprivate func receiveOther(subscription: any Subscription) {
        lock.lock()
        guard !terminated, case .awaiting = other else {
            lock.unlock()
            subscription.cancel()
            return
        }
        other = .subscribed(subscription)
        lock.unlock()
        subscription.request(.max(1))
    }

    fileprivate func receiveOther(_ input: OtherOutput) {
        lock.lock()
        guard !terminated, case .subscribed(let trigger) = other else {
            lock.unlock()
            return
        }
        other = .done
        switch mode {
        case .drop:
            triggered = true
            lock.unlock()
            trigger.cancel()   // its work is done
        case .prefix:
            terminated = true
            let cancelled = upstream.subscription
            upstream = .done
            let mustDeliver = queue.push(.completion(.finished))
            let downstream = mustDeliver ? self.downstream : nil
            lock.unlock()
            trigger.cancel()
            cancelled?.cancel()
            if let downstream { _ = deliver(.completion(.finished), to: downstream) }
        }
    }

    fileprivate func receiveOther(completion: Subscribers.Completion<OtherFailure>) {
        lock.lock()
        guard case .subscribed = other else {
            lock.unlock()
            return
        }
        let ended = other
        other = .done
        guard !terminated, !triggered, case .drop(let forward) = mode else {
            lock.unlock()
            withExtendedLifetime(ended) {}
            return
        }
        terminated = true
        let cancelled = upstream.subscription
        upstream = .done
        let completion = forward(completion)
        let mustDeliver = queue.push(.completion(completion))
        let downstream = mustDeliver ? self.downstream : nil
        lock.unlock()
        withExtendedLifetime(ended) {}
        cancelled?.cancel()
        if let downstream { _ = deliver(.completion(completion), to: downstream) }
    }

    // MARK: Delivery

    /// Delivers `first`, then whatever was queued meanwhile; the caller is the deliverer.
    /// Returns the demand the downstream answered to `first`, for the upstream call that
    /// brought it; the demand answered to a queued value (whose call has returned) is
    /// requested from the upstream.
    private func deliver(_ first: Event, to downstream: Downstream) -> Subscribers.Demand {
        var event = first
        var answer: Subscribers.Demand?
        while true {
            var more = Subscribers.Demand.none
            var completed = false
            switch event {
            case .value(let value):
                more = downstream.receive(value)
            case .completion(let completion):
                downstream.receive(completion: completion)
                completed = true
            }
            var requestFrom: (any Subscription)?
            lock.lock()
            if completed {
                // The parameter keeps the downstream alive until this call returns.
                self.downstream = nil
            } else if more > .none, !terminated {
                demand += more
                if answer != nil { requestFrom = upstream.subscription }
            }
            if answer == nil { answer = completed ? Subscribers.Demand.none : more }
            let next = queue.next()
            lock.unlock()
            requestFrom?.request(more)
            guard let next else { return answer ?? .none }
            event = next
        }
    }

    // MARK: Sides

    /// The subscriber to the upstream.
    private struct UpstreamSide: Subscriber, CombineReflectable {
        typealias Input = Output
        typealias Failure = Downstream.Failure

        let inner: UntilOutputInner
        let combineIdentifier = CombineIdentifier()

        var description: String { inner.description }

        func receive(subscription: any Subscription) {
            inner.receiveUpstream(subscription: subscription)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            inner.receiveUpstream(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            inner.receiveUpstream(completion: completion)
        }
    }

    /// The subscriber to the other publisher.
    private struct OtherSide: Subscriber, CombineReflectable {
        typealias Input = OtherOutput
        typealias Failure = OtherFailure

        let inner: UntilOutputInner
        let combineIdentifier = CombineIdentifier()

        var description: String { inner.description }

        func receive(subscription: any Subscription) {
            inner.receiveOther(subscription: subscription)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            inner.receiveOther(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            inner.receiveOther(completion: completion)
        }
    }
}
