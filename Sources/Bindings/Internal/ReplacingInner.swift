/// When an operator built on ``ReplacingInner`` replaces its upstream's end with an
/// element: `replaceEmpty(with:)` (a `.finished` with no element before it) and
/// `replaceError(with:)` (a failure).
protocol ReplacementRule {
    associatedtype UpstreamFailure: Error
    /// The operator's failure type.
    associatedtype Failure: Error

    /// The operator's name, for `description` and reflection.
    static var name: String { get }

    /// Whether `completion` is replaced by the element; `receivedValue`: whether an
    /// element came before it.
    static func replaces(_ completion: Subscribers.Completion<UpstreamFailure>, receivedValue: Bool) -> Bool

    /// A completion that is not replaced, as it goes down.
    static func passOn(_ completion: Subscribers.Completion<UpstreamFailure>) -> Subscribers.Completion<Failure>
}

/// The subscriber that `replaceEmpty(with:)` and `replaceError(with:)` attach upstream,
/// which is also the subscription their subscriber gets, so that the replacement can
/// wait for demand.
///
/// - Elements pass through, and demand goes straight upstream (a request of zero stops
///   the program, as in Combine); the subscriber's outstanding demand is counted.
/// - An end that `Rule` replaces is followed by the element, then `.finished`: at once
///   if the subscriber has demand left, else at its next request. Any other end goes
///   down as `Rule` passes it on.
/// - After a cancel or the completion nothing more goes down, and the subscriber and
///   the upstream subscription are let go.
final class ReplacingInner<Rule: ReplacementRule, Input, Downstream: Subscriber>: Subscriber, Subscription,
    CombineReflectable
where Downstream.Input == Input, Downstream.Failure == Rule.Failure {
    typealias Failure = Rule.UpstreamFailure

    private enum State {
        case awaitingSubscription
        case subscribed
        /// The upstream ended while the subscriber had no demand: the replacement waits
        /// for a request.
        case waitingForDemand
        /// The replacement and `.finished` are on their way down.
        case delivering
        case done
    }

    private let output: Input
    /// Guards `state`, `demand`, `upstream` and `downstream`, which `request`/`cancel`
    /// (any thread) and the upstream's calls share. Never held while calling out.
    private let lock = CompactLock()
    @exclusivity(unchecked) private var state = State.awaitingSubscription
    /// What the subscriber asked for and has not received yet.
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    @exclusivity(unchecked) private var upstream: (any Subscription)?
    @exclusivity(unchecked) private var downstream: Downstream?
    /// Only touched by the upstream's calls, which come one at a time.
    @exclusivity(unchecked) private var receivedValue = false

    init(downstream: Downstream, output: Input) {
        self.downstream = downstream
        self.output = output
    }

    var description: String { Rule.name }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed
        upstream = subscription
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state, let downstream else {
            lock.unlock()
            return .none
        }
        demand -= 1
        lock.unlock()
        receivedValue = true
        let more = downstream.receive(input)
        if more > .none {
            lock.lock()
            demand += more
            lock.unlock()
        }
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return
        }
        let upstream = self.upstream.take()
        let replace = Rule.replaces(completion, receivedValue: receivedValue)
        let downstream: Downstream?
        if replace && demand == .none {
            state = .waitingForDemand
            downstream = nil
        } else {
            state = replace ? .delivering : .done
            downstream = replace ? self.downstream : self.downstream.take()
        }
        lock.unlock()
        withExtendedLifetime(upstream) {}
        guard let downstream else { return }
        if replace {
            deliver(to: downstream)
        } else {
            downstream.receive(completion: Rule.passOn(completion))
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        switch state {
        case .subscribed:
            self.demand += demand
            let upstream = self.upstream
            lock.unlock()
            upstream?.request(demand)
        case .waitingForDemand:
            state = .delivering
            let downstream = self.downstream
            lock.unlock()
            if let downstream { deliver(to: downstream) }
        case .awaitingSubscription, .delivering, .done:
            lock.unlock()
        }
    }

    func cancel() {
        lock.lock()
        let wasSubscribed = if case .subscribed = state { true } else { false }
        state = .done
        let upstream = self.upstream.take()
        let downstream = self.downstream.take()
        lock.unlock()
        if wasSubscribed { upstream?.cancel() }
        withExtendedLifetime(downstream) {}
    }

    /// Sends the replacement, then `.finished` unless the subscriber cancelled meanwhile.
    private func deliver(to downstream: Downstream) {
        _ = downstream.receive(output)
        lock.lock()
        guard case .delivering = state else {
            lock.unlock()
            return
        }
        state = .done
        let released = self.downstream.take()
        lock.unlock()
        withExtendedLifetime(released) {}
        downstream.receive(completion: .finished)
    }
}

extension Subscribers.Completion {
    /// Whether this is `.finished`.
    var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }
}
