extension Publishers {
    /// A publisher that replaces an empty stream with a provided element, as in Combine.
    ///
    /// ```swift
    /// let c = Empty<Int, Never>().replaceEmpty(with: 0).sink { print($0) }   // prints 0
    /// ```
    ///
    /// The upstream's elements and failure pass through; when the upstream finishes
    /// without an element, `output` is published (once the subscriber has asked for
    /// something), then `.finished`. Demand goes straight upstream; the subscriber gets a
    /// subscription of this publisher's own (a request of zero stops the program, as in
    /// Combine).
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering
        /// any elements.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes `output` if `upstream` finishes empty.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber` to the upstream publisher, with the replacement.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
extension Publishers.ReplaceEmpty: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

extension Publishers.ReplaceEmpty {
    /// Forwards everything, remembering whether a value came; it is the subscriber's
    /// subscription, so that the replacement can wait for a request.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        private enum State {
            case awaitingSubscription
            case subscribed
            /// The upstream finished empty before any request: the replacement waits.
            case waitingForDemand
            /// The replacement and `.finished` are on their way down.
            case delivering
            case done
        }

        private let output: Upstream.Output
        /// Guards `state`, `requested`, `upstream` and `downstream`, which
        /// `request`/`cancel` (any thread) and the upstream's calls share. Never held while
        /// calling out.
        private let lock = CompactLock()
        @exclusivity(unchecked) private var state = State.awaitingSubscription
        /// Whether the subscriber has asked for anything: if it has and nothing came, the
        /// replacement is within its demand.
        @exclusivity(unchecked) private var requested = false
        @exclusivity(unchecked) private var upstream: (any Subscription)?
        @exclusivity(unchecked) private var downstream: Downstream?
        /// Only touched by the upstream's calls, which come one at a time.
        @exclusivity(unchecked) private var receivedValue = false

        init(downstream: Downstream, output: Upstream.Output) {
            self.downstream = downstream
            self.output = output
        }

        var description: String { "ReplaceEmpty" }

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
            lock.unlock()
            receivedValue = true
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.lock()
            guard case .subscribed = state else {
                lock.unlock()
                return
            }
            let upstream = self.upstream.take()
            let downstream: Downstream?
            let replace = completion.isFinished && !receivedValue
            if replace && !requested {
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
                downstream.receive(completion: completion)
            }
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero()
            lock.lock()
            switch state {
            case .subscribed:
                requested = true
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

extension Subscribers.Completion {
    /// Whether this is `.finished`.
    var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }
}

extension Publisher {
    /// Replaces an empty stream with the provided element: if the upstream finishes
    /// without an element, this publisher emits `output`, then finishes.
    ///
    /// ```swift
    /// let c = searchResults.replaceEmpty(with: "no results").sink { print($0) }
    /// ```
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}
