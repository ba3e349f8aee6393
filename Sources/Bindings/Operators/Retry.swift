extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream
    /// publisher, as in Combine.
    ///
    /// When the upstream fails, it subscribes to it again, up to `retries` times (for ever
    /// when `retries` is `nil`); the failure that comes after the last attempt is passed
    /// on. Values and `.finished` pass through.
    ///
    /// ```swift
    /// let c = fetchScores()        // subscribes again after each failure, at most 3 times
    ///     .retry(3)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { show($0) })
    /// ```
    ///
    /// Demand carries over: each new subscription is asked for what the subscriber asked
    /// for and has not received. Nothing is delivered beyond the demand, nor from a failed
    /// subscription after its failure. An upstream that fails at once when subscribed to
    /// is subscribed to again in a loop, not by recursion.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of retry attempts to perform; `nil` for no limit.
        public let retries: Int?

        /// Creates a publisher that subscribes to a failed `upstream` again, up to
        /// `retries` times (without limit when `nil`; a negative count is taken as 0).
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, upstream: upstream, retries: retries)
            subscriber.receive(subscription: inner)
            inner.subscribeUpstream()
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publishers.Retry {
    /// Subscribes to the upstream, again after each failure while attempts remain, and
    /// serves the downstream.
    ///
    /// Each subscription's events come through a ``Side`` tagged with its attempt, so that
    /// what a failed subscription sends later is told apart and dropped. Each attempt
    /// sends one event at a time (Combine's contract) and the next starts only after the
    /// failure of the previous one, so the downstream is called directly, never with the
    /// lock held.
    final class Inner<Downstream: Subscriber>: Subscription, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let lock = Lock()
        // Everything below is guarded by `lock`.
        /// `nil` once cancelled or completed, so that a downstream that keeps its
        /// subscription forms no lasting cycle with it.
        private var downstream: Downstream?
        /// The publisher to subscribe to again; released at the end.
        private var upstream: Upstream?
        /// The retries left; `nil` for no limit.
        private var remaining: Int?
        /// The current attempt; events tagged with another are stale.
        private var attempt: UInt64 = 0
        /// The current attempt's subscription, once it has arrived.
        private var current: (any Subscription)?
        /// What the downstream asked for and has not received.
        private var demand = Subscribers.Demand.none
        /// Whether a thread is inside `subscribeUpstream()`'s loop; a failure meanwhile
        /// leaves the new subscription to it (see ``needsResubscribe``).
        private var subscribing = false
        /// Whether an attempt failed while `subscribing`: the loop subscribes again.
        private var needsResubscribe = false
        private var terminated = false

        init(downstream: Downstream, upstream: Upstream, retries: Int?) {
            self.downstream = downstream
            self.upstream = upstream
            remaining = retries.map { Swift.max($0, 0) }
        }

        var description: String { "Retry" }

        /// Subscribes to the upstream for the current attempt, and again for each attempt
        /// that fails during that subscription (a publisher that fails at once when
        /// subscribed to, like `Fail`), in a loop rather than by recursion, so that many
        /// retries do not grow the stack.
        func subscribeUpstream() {
            lock.lock()
            guard !subscribing else {
                needsResubscribe = true
                lock.unlock()
                return
            }
            subscribing = true
            while !terminated, let upstream {
                needsResubscribe = false
                let side = Side(inner: self, attempt: attempt)
                lock.unlock()
                upstream.subscribe(side)
                lock.lock()
                if !needsResubscribe { break }
            }
            subscribing = false
            lock.unlock()
        }

        // MARK: Subscription

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            guard !terminated else {
                lock.unlock()
                return
            }
            self.demand += demand
            let current = self.current
            lock.unlock()
            // `.none` passes through, as in Combine (the upstream decides).
            current?.request(demand)
        }

        func cancel() {
            lock.lock()
            guard !terminated else {
                lock.unlock()
                return
            }
            terminated = true
            let current = self.current
            self.current = nil
            let released = (downstream, upstream)
            downstream = nil
            upstream = nil
            lock.unlock()
            current?.cancel()
            withExtendedLifetime(released) {}
        }

        // MARK: Upstream events

        fileprivate func receive(subscription: any Subscription, attempt: UInt64) {
            lock.lock()
            guard !terminated, attempt == self.attempt, current == nil else {
                lock.unlock()
                subscription.cancel()
                return
            }
            current = subscription
            let demand = self.demand
            lock.unlock()
            if demand > .none { subscription.request(demand) }
        }

        fileprivate func receive(_ input: Output, attempt: UInt64) -> Subscribers.Demand {
            lock.lock()
            // Only from the current attempt, and only what was asked for.
            guard !terminated, attempt == self.attempt, demand > .none, let downstream else {
                lock.unlock()
                return .none
            }
            demand -= 1
            lock.unlock()
            // Consumed: a cancel during the call may leave this copy the last reference,
            // which must not go while the lock is held (the subscriber's `deinit` may
            // call back in).
            let more = (consume downstream).receive(input)
            if more > .none {
                lock.lock()
                if !terminated { demand += more }
                lock.unlock()
            }
            return more
        }

        fileprivate func receive(completion: Subscribers.Completion<Failure>, attempt: UInt64) {
            lock.lock()
            guard !terminated, attempt == self.attempt else {
                lock.unlock()
                return
            }
            let ended = current
            current = nil
            if case .failure = completion, remaining != 0 {
                // Another attempt: what the failed one sends from now on is stale.
                if let left = remaining { remaining = left - 1 }
                self.attempt &+= 1
                lock.unlock()
                withExtendedLifetime(ended) {}
                subscribeUpstream()
                return
            }
            terminated = true
            let downstream = self.downstream
            let upstream = self.upstream
            self.downstream = nil
            self.upstream = nil
            lock.unlock()
            withExtendedLifetime((ended, upstream)) {}
            downstream?.receive(completion: completion)
        }

        // MARK: Side

        /// The subscriber to one attempt's subscription: forwards its events, tagged with
        /// the attempt.
        private struct Side: Subscriber, CombineReflectable {
            typealias Input = Upstream.Output
            typealias Failure = Upstream.Failure

            let inner: Inner
            let attempt: UInt64
            let combineIdentifier = CombineIdentifier()

            var description: String { "Retry" }

            func receive(subscription: any Subscription) {
                inner.receive(subscription: subscription, attempt: attempt)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                inner.receive(input, attempt: attempt)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                inner.receive(completion: completion, attempt: attempt)
            }
        }
    }
}

extension Publisher {
    /// Attempts to recreate a failed subscription with the upstream publisher up to the
    /// number of times you specify; the failure after the last attempt is passed on.
    ///
    /// ```swift
    /// let c = fetchScores().retry(3).sink(receiveCompletion: { print($0) }, receiveValue: { show($0) })
    /// ```
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

// Combine's specializations of `retry(_:)` on publishers whose result is fixed: a new
// subscription would give the same result, so they return the publisher itself.

extension Just {
    /// Returns this publisher: it cannot fail, so there is nothing to retry.
    ///
    /// ```swift
    /// let p: Just<Int> = Just(1).retry(3)
    /// ```
    public func retry(_ times: Int) -> Just<Output> {
        self
    }
}

extension Result.Publisher {
    /// Returns this publisher: subscribing again would give the same result.
    ///
    /// ```swift
    /// let p: Result<Int, ParseError>.Publisher = parse(text).publisher.retry(3)   // parse returns a Result
    /// ```
    public func retry(_ times: Int) -> Result<Success, Failure>.Publisher {
        self
    }
}
