extension Publishers {
    /// A publisher that replaces any error in the stream with a provided element, as in
    /// Combine.
    ///
    /// ```swift
    /// let c = downloads.replaceError(with: placeholder).sink { show($0) }
    /// ```
    ///
    /// The upstream's elements and `.finished` pass through; a failure is replaced by
    /// `output` (published once the subscriber has demand for it), then `.finished`, so
    /// that this publisher cannot fail. Demand goes straight upstream; the subscriber
    /// gets a subscription of this publisher's own (a request of zero stops the program,
    /// as in Combine).
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// It cannot fail.
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes `output`, then finishes, when `upstream`
        /// fails.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber` to the upstream publisher, with the replacement.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(Inner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
extension Publishers.ReplaceError: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

extension Publishers.ReplaceError {
    /// Forwards values, counting the subscriber's outstanding demand; it is the
    /// subscriber's subscription, so that the replacement can wait for demand.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        private enum State {
            case awaitingSubscription
            case subscribed
            /// The upstream failed while the subscriber had no demand: the replacement
            /// waits for a request.
            case waitingForDemand
            /// The replacement and `.finished` are on their way down.
            case delivering
            case done
        }

        private let output: Upstream.Output
        /// Guards `state`, `demand`, `upstream` and `downstream`, which `request`/`cancel`
        /// (any thread) and the upstream's calls share. Never held while calling out.
        private let lock = CompactLock()
        @exclusivity(unchecked) private var state = State.awaitingSubscription
        /// What the subscriber asked for and has not received yet.
        @exclusivity(unchecked) private var demand = Subscribers.Demand.none
        @exclusivity(unchecked) private var upstream: (any Subscription)?
        @exclusivity(unchecked) private var downstream: Downstream?

        init(downstream: Downstream, output: Upstream.Output) {
            self.downstream = downstream
            self.output = output
        }

        var description: String { "ReplaceError" }

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

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed = state, let downstream else {
                lock.unlock()
                return .none
            }
            demand -= 1
            lock.unlock()
            let more = downstream.receive(input)
            if more > .none {
                lock.lock()
                demand += more
                lock.unlock()
            }
            return more
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.lock()
            guard case .subscribed = state else {
                lock.unlock()
                return
            }
            let upstream = self.upstream.take()
            let failed = !completion.isFinished
            let downstream: Downstream?
            if failed && demand == .none {
                state = .waitingForDemand
                downstream = nil
            } else {
                state = failed ? .delivering : .done
                downstream = failed ? self.downstream : self.downstream.take()
            }
            lock.unlock()
            withExtendedLifetime(upstream) {}
            guard let downstream else { return }
            if failed {
                deliver(to: downstream)
            } else {
                downstream.receive(completion: .finished)
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

        /// Sends the replacement, then `.finished` unless the subscriber cancelled
        /// meanwhile.
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
}

extension Publisher {
    /// Replaces any error in the stream with the provided element: if the upstream
    /// fails, this publisher emits `output`, then finishes normally.
    ///
    /// ```swift
    /// let c = downloads.replaceError(with: placeholder).sink { show($0) }
    /// ```
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}
