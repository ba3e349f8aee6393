extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed
    /// publisher with another publisher, as in Combine.
    ///
    /// It republishes the upstream's values and its `.finished`. When the upstream fails,
    /// `handler` makes a publisher of the error, and the stream goes on with that
    /// publisher's values and completion.
    ///
    /// ```swift
    /// let c = fetchScores()                        // AnyPublisher<[Int], FetchError>
    ///     .catch { _ in Just([]) }                 // on failure: an empty list, then finished
    ///     .sink { show($0) }
    /// ```
    ///
    /// Demand carries over: requests go to the upstream, and what the subscriber asked for
    /// and did not get from it is requested from the replacement. Nothing is delivered
    /// beyond the demand, nor from the upstream after its failure.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The replacement's failure type: only the replacement can fail the stream.
        public typealias Failure = NewPublisher.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that accepts the upstream failure as input and returns a publisher to
        /// replace the upstream publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that replaces a failed `upstream` with the publisher that
        /// `handler` makes of its error.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            let inner = CatchInner<Upstream, NewPublisher, S>(
                downstream: subscriber, description: "Catch", handler: { .success(handler($0)) },
                convert: { $0 })
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner.upstreamSide)
        }
    }
}

extension Publisher {
    /// Handles errors from an upstream publisher by replacing it with another publisher.
    ///
    /// ```swift
    /// let c = fetchScores().catch { _ in Just([]) }.sink { show($0) }
    /// ```
    public func `catch`<P: Publisher>(
        _ handler: @escaping (Failure) -> P
    ) -> Publishers.Catch<Self, P> where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}

/// The subscription behind `catch` and `tryCatch`: it serves the downstream from the
/// upstream, then, if the upstream fails, from the publisher that the handler makes.
///
/// Semantics (Combine's):
/// - Values and `.finished` of the upstream pass through. Its failure goes to the
///   handler: the publisher it returns is subscribed to and carries the stream on (its
///   failure, converted with `convert`, ends it); an error the handler gives back instead
///   (`tryCatch`'s throw) fails the stream.
/// - Demand: requests go to the current publisher; what the downstream asked for and has
///   not received is requested from the replacement when it subscribes. Values beyond the
///   demand, and anything the upstream sends after its failure, are dropped.
/// - The downstream, the handler and the subscriptions are released at the completion or
///   on `cancel()`; a cancel while the handler runs stops the replacement from being
///   subscribed to.
/// - The upstream and then the replacement send one at a time (Combine's contract), so the
///   downstream is called directly, never with the lock held.
final class CatchInner<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
    CombineReflectable
where Upstream.Output == NewPublisher.Output, Downstream.Input == Upstream.Output {
    typealias Output = Upstream.Output
    typealias Failure = Downstream.Failure

    private enum Phase {
        case awaitingUpstream, upstream, awaitingReplacement, replacement, terminal
    }

    let description: String
    private let lock = Lock()
    // Everything below is guarded by `lock`.
    private var phase = Phase.awaitingUpstream
    /// The current publisher's subscription: the upstream's, then the replacement's.
    private var subscription: (any Subscription)?
    /// `nil` once cancelled or completed, so that a downstream that keeps its
    /// subscription forms no lasting cycle with it.
    private var downstream: Downstream?
    /// What the downstream asked for and has not received.
    private var demand = Subscribers.Demand.none
    /// Makes the replacement, or the error that ends the stream; released once used.
    private var handler: ((Upstream.Failure) -> Result<NewPublisher, Failure>)?
    private let convert: (NewPublisher.Failure) -> Failure

    init(
        downstream: Downstream, description: String,
        handler: @escaping (Upstream.Failure) -> Result<NewPublisher, Failure>,
        convert: @escaping (NewPublisher.Failure) -> Failure
    ) {
        self.downstream = downstream
        self.description = description
        self.handler = handler
        self.convert = convert
    }

    /// The subscriber to the upstream.
    var upstreamSide: UpstreamSide { UpstreamSide(inner: self) }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        guard phase != .terminal else {
            lock.unlock()
            return
        }
        self.demand += demand
        let current = phase == .upstream || phase == .replacement ? subscription : nil
        lock.unlock()
        current?.request(demand)
    }

    func cancel() {
        lock.lock()
        guard phase != .terminal else {
            lock.unlock()
            return
        }
        phase = .terminal
        let current = subscription
        subscription = nil
        let released = (downstream, handler)
        downstream = nil
        handler = nil
        lock.unlock()
        current?.cancel()
        withExtendedLifetime(released) {}
    }

    // MARK: Events

    /// Keeps the subscription of the upstream (`replacement` false) or of the replacement,
    /// if it is the one awaited, and asks it for the outstanding demand.
    fileprivate func receive(subscription: any Subscription, replacement: Bool) {
        lock.lock()
        guard phase == (replacement ? .awaitingReplacement : .awaitingUpstream) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        phase = replacement ? .replacement : .upstream
        self.subscription = subscription
        let demand = self.demand
        lock.unlock()
        if demand > .none { subscription.request(demand) }
    }

    fileprivate func receive(_ input: Output, replacement: Bool) -> Subscribers.Demand {
        lock.lock()
        // Only from the current publisher, and only what was asked for.
        guard phase == (replacement ? .replacement : .upstream), demand > .none, let downstream else {
            lock.unlock()
            return .none
        }
        demand -= 1
        lock.unlock()
        // Consumed: released before the lock is taken again (see `Retry`).
        let more = (consume downstream).receive(input)
        if more > .none {
            lock.lock()
            if phase != .terminal { demand += more }
            lock.unlock()
        }
        return more
    }

    fileprivate func receiveUpstream(completion: Subscribers.Completion<Upstream.Failure>) {
        lock.lock()
        guard phase == .upstream || phase == .awaitingUpstream else {
            lock.unlock()
            return
        }
        let ended = subscription
        subscription = nil
        switch completion {
        case .finished:
            phase = .terminal
            let handler = self.handler
            self.handler = nil
            let downstream = self.downstream
            self.downstream = nil
            lock.unlock()
            withExtendedLifetime((ended, handler)) {}
            downstream?.receive(completion: .finished)
        case .failure(let error):
            phase = .awaitingReplacement
            let handler = self.handler
            self.handler = nil
            lock.unlock()
            withExtendedLifetime(ended) {}
            guard let handler else { return }
            // User code: called without the lock.
            let made = handler(error)
            lock.lock()
            guard phase == .awaitingReplacement else {
                // Cancelled while the handler ran.
                lock.unlock()
                return
            }
            switch made {
            case .success(let replacement):
                lock.unlock()
                replacement.subscribe(ReplacementSide(inner: self))
            case .failure(let failure):
                phase = .terminal
                let downstream = self.downstream
                self.downstream = nil
                lock.unlock()
                downstream?.receive(completion: .failure(failure))
            }
        }
    }

    fileprivate func receiveReplacement(completion: Subscribers.Completion<NewPublisher.Failure>) {
        lock.lock()
        guard phase == .replacement || phase == .awaitingReplacement else {
            lock.unlock()
            return
        }
        phase = .terminal
        let ended = subscription
        subscription = nil
        let downstream = self.downstream
        self.downstream = nil
        lock.unlock()
        withExtendedLifetime(ended) {}
        switch completion {
        case .finished: downstream?.receive(completion: .finished)
        case .failure(let error): downstream?.receive(completion: .failure(convert(error)))
        }
    }

    // MARK: Sides

    /// The subscriber to the upstream.
    struct UpstreamSide: Subscriber, CombineReflectable {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let inner: CatchInner
        let combineIdentifier = CombineIdentifier()

        var description: String { inner.description }

        func receive(subscription: any Subscription) {
            inner.receive(subscription: subscription, replacement: false)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            inner.receive(input, replacement: false)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            inner.receiveUpstream(completion: completion)
        }
    }

    /// The subscriber to the replacement.
    struct ReplacementSide: Subscriber, CombineReflectable {
        typealias Input = NewPublisher.Output
        typealias Failure = NewPublisher.Failure

        let inner: CatchInner
        let combineIdentifier = CombineIdentifier()

        var description: String { inner.description }

        func receive(subscription: any Subscription) {
            inner.receive(subscription: subscription, replacement: true)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            inner.receive(input, replacement: true)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            inner.receiveReplacement(completion: completion)
        }
    }
}
