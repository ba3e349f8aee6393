extension Publishers {
    /// A publisher that flattens nested publishers, delivering only the elements of the
    /// most recent one, as in Combine.
    ///
    /// Each publisher the upstream emits replaces the previous one: the previous one is
    /// cancelled and nothing more of it is delivered. It finishes when the upstream has
    /// finished and so has the current inner publisher; it fails as soon as either fails
    /// (cancelling the other).
    ///
    /// ```swift
    /// let queries = PassthroughSubject<String, Never>()
    /// let c = queries.map { search($0) }.switchToLatest().sink { show($0) }
    /// queries.send("sw")      // results for "sw" …
    /// queries.send("swift")   // … stop; only those for "swift" arrive
    /// ```
    ///
    /// Demand: the upstream is asked for unlimited publishers; the subscriber's demand
    /// goes to the current inner publisher, and a new inner one is asked for what is still
    /// outstanding. Inner values beyond the demand are dropped (Combine traps on them). The
    /// upstream and the inner publishers may publish on different threads; the subscriber
    /// is never called concurrently.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        /// The inner publishers' output type.
        public typealias Output = P.Output
        /// The failure type shared by the upstream and its inner publishers.
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Creates a publisher that flattens the publishers that `upstream` emits.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber)
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.SwitchToLatest {
    /// Subscribes to the upstream (the *outer* publisher) and to its latest inner
    /// publisher, and serves the downstream; thread-safe (see ``DeliveryQueue``).
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = P
        typealias Event = DeliveryQueue<Output, Failure>.Event

        private let lock = Lock()
        // Everything below is guarded by `lock`, which orders every access, so it is
        // `@exclusivity(unchecked)`: the operator's code runs generic (its upstreams call
        // it through their `Subscriber` conformances), where each access was checked at
        // run time.
        /// `nil` once cancelled or once the completion is delivered, so that a downstream
        /// that keeps its subscription forms no lasting cycle with it. Boxed (see
        /// `SubscriberBox`).
        @exclusivity(unchecked) private var downstream: SubscriberBox<Downstream>?
        @exclusivity(unchecked) private var demand = Subscribers.Demand.none
        @exclusivity(unchecked) private var outer: (any Subscription)?
        @exclusivity(unchecked) private var outerFinished = false
        /// The current inner publisher's subscription, once it has arrived.
        @exclusivity(unchecked) private var current: (any Subscription)?
        /// The id of the current inner publisher; events tagged with another are stale.
        @exclusivity(unchecked) private var currentID: UInt64 = 0
        /// Whether the current inner publisher has not sent its subscription yet.
        @exclusivity(unchecked) private var awaitingCurrent = false
        /// Whether the completion is decided (queued or delivered) or the subscription cancelled.
        @exclusivity(unchecked) private var terminated = false
        @exclusivity(unchecked) private var queue = DeliveryQueue<Output, Failure>()

        init(downstream: Downstream) {
            self.downstream = SubscriberBox(downstream)
        }

        var description: String { "SwitchToLatest" }

        // MARK: Subscription

        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero()
            lock.lock()
            guard !terminated else {
                lock.unlock()
                return
            }
            self.demand += demand
            let current = self.current
            lock.unlock()
            current?.request(demand)
        }

        func cancel() {
            lock.lock()
            terminated = true
            let released = downstream
            downstream = nil
            let dropped = queue.removeAll()
            let outer = self.outer
            let current = self.current
            self.outer = nil
            self.current = nil
            lock.unlock()
            current?.cancel()
            outer?.cancel()
            withExtendedLifetime((released, dropped)) {}
        }

        // MARK: Outer events

        func receive(subscription: any Subscription) {
            lock.lock()
            guard !terminated, !outerFinished, outer == nil else {
                lock.unlock()
                subscription.cancel()
                return
            }
            outer = subscription
            lock.unlock()
            subscription.request(.unlimited)
        }

        func receive(_ input: P) -> Subscribers.Demand {
            lock.lock()
            guard !terminated else {
                lock.unlock()
                return .none
            }
            let replaced = current
            current = nil
            currentID &+= 1
            let id = currentID
            awaitingCurrent = true
            lock.unlock()
            replaced?.cancel()
            input.subscribe(Side(inner: self, id: id))
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            let ended = outer
            outer = nil
            outerFinished = true
            guard !terminated else {
                lock.unlock()
                return
            }
            var cancelled: (any Subscription)?
            switch completion {
            case .finished:
                guard current == nil, !awaitingCurrent else {
                    lock.unlock()
                    withExtendedLifetime(ended) {}
                    return
                }
            case .failure:
                cancelled = current
                current = nil
            }
            terminated = true
            let mustDeliver = queue.push(.completion(completion))
            let downstream = mustDeliver ? self.downstream : nil
            lock.unlock()
            withExtendedLifetime(ended) {}
            cancelled?.cancel()
            if let downstream { deliverEvents(.completion(completion), to: downstream) }
        }

        // MARK: Inner events

        fileprivate func receiveInner(subscription: any Subscription, id: UInt64) {
            lock.lock()
            guard !terminated, id == currentID, current == nil else {
                lock.unlock()
                subscription.cancel()
                return
            }
            current = subscription
            awaitingCurrent = false
            let demand = self.demand
            lock.unlock()
            if demand > .none { subscription.request(demand) }
        }

        fileprivate func receiveInner(_ input: Output, id: UInt64) {
            lock.lock()
            guard !terminated, id == currentID, demand > .none else {
                lock.unlock()
                return
            }
            demand -= 1
            if queue.isDelivering {
                lockedQueue(input)
                lock.unlock()
                return
            }
            queue.isDelivering = true
            let downstream = self.downstream
            lock.unlock()
            if let downstream { deliver(input, to: downstream) }
        }

        /// Under the lock: queues `input` for the thread that is delivering. Out of line,
        /// as are the other paths that make events: code running generic looks up the
        /// metadata of every type a function uses when it is entered, whichever branch it
        /// then takes.
        @inline(never)
        private func lockedQueue(_ input: Output) {
            queue.append(.value(input))
        }

        fileprivate func receiveInner(completion: Subscribers.Completion<Failure>, id: UInt64) {
            lock.lock()
            guard !terminated, id == currentID else {
                lock.unlock()
                return
            }
            let ended = current
            current = nil
            awaitingCurrent = false
            var cancelled: (any Subscription)?
            switch completion {
            case .finished:
                guard outerFinished else {
                    lock.unlock()
                    withExtendedLifetime(ended) {}
                    return
                }
            case .failure:
                cancelled = outer
                outer = nil
            }
            terminated = true
            let mustDeliver = queue.push(.completion(completion))
            let downstream = mustDeliver ? self.downstream : nil
            lock.unlock()
            withExtendedLifetime(ended) {}
            cancelled?.cancel()
            if let downstream { deliverEvents(.completion(completion), to: downstream) }
        }

        // MARK: Delivery

        /// Delivers `value`, then whatever was queued meanwhile; the caller is the
        /// deliverer. When nothing was queued and no demand came back (a `sink`'s case), it
        /// makes no event.
        private func deliver(_ value: Output, to downstream: SubscriberBox<Downstream>) {
            let more = downstream.subscriber.receive(value)
            lock.lock()
            let ended = queue.endTurnIfIdle(returned: more)
            lock.unlock()
            if !ended { deliverQueued(adding: more, to: downstream) }
        }

        /// After a value delivered by `deliver(_:to:)`: passes the demand it returned to
        /// the current inner publisher, then delivers what is queued.
        @inline(never)
        private func deliverQueued(adding more: Subscribers.Demand, to downstream: SubscriberBox<Downstream>) {
            var requestFrom: (any Subscription)?
            lock.lock()
            if more > .none, !terminated {
                demand += more
                requestFrom = current
            }
            let next = queue.next()
            lock.unlock()
            requestFrom?.request(more)
            if let next { deliverEvents(next, to: downstream) }
        }

        /// Delivers `first`, then whatever was queued meanwhile; the caller is the
        /// deliverer. Demand the downstream returns goes to the current inner publisher.
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
                var requestFrom: (any Subscription)?
                lock.lock()
                if completed {
                    // The parameter keeps the downstream alive until this call returns.
                    self.downstream = nil
                } else if more > .none, !terminated {
                    demand += more
                    requestFrom = current
                }
                let next = queue.next()
                lock.unlock()
                requestFrom?.request(more)
                guard let next else { return }
                event = next
            }
        }

        // MARK: Side

        /// The subscriber to one inner publisher: forwards its events, tagged with its id.
        private struct Side: Subscriber, CombineReflectable {
            typealias Input = Output
            typealias Failure = P.Failure

            let inner: Inner
            let id: UInt64
            let combineIdentifier = CombineIdentifier()

            var description: String { "SwitchToLatest" }

            func receive(subscription: any Subscription) {
                inner.receiveInner(subscription: subscription, id: id)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                inner.receiveInner(input, id: id)
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                inner.receiveInner(completion: completion, id: id)
            }
        }
    }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes the elements of the most recent publisher this publisher emits,
    /// cancelling the previous one.
    ///
    /// ```swift
    /// let c = queries.map { search($0) }.switchToLatest().sink { show($0) }
    /// ```
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Republishes the elements of the most recent publisher this never-failing publisher
    /// emits, cancelling the previous one; the inner publishers may fail.
    ///
    /// ```swift
    /// let c = queries.map { search($0) }.switchToLatest().sink(
    ///     receiveCompletion: { print($0) }, receiveValue: { show($0) })
    /// ```
    public func switchToLatest()
        -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>>
    {
        Publishers.SwitchToLatest(upstream: setFailureType(to: Output.Failure.self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Republishes the elements of the most recent publisher this publisher emits,
    /// cancelling the previous one; neither can fail.
    ///
    /// ```swift
    /// let c = selectedRow.map { rows[$0].$title }.switchToLatest().sink { label.text = $0 }
    /// ```
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes the elements of the most recent publisher this publisher emits,
    /// cancelling the previous one; the inner publishers cannot fail, this one may.
    ///
    /// ```swift
    /// let c = selections.map { rows[$0].$title }.switchToLatest()   // selections may fail
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { label.text = $0 })
    /// ```
    public func switchToLatest() -> Publishers.SwitchToLatest<
        Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    > {
        Publishers.SwitchToLatest(upstream: map { $0.setFailureType(to: Failure.self) })
    }
}
