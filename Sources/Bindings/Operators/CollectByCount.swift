extension Publishers {
    /// A publisher that collects up to a given number of elements and publishes them as
    /// an array, as in Combine.
    ///
    /// ```swift
    /// let c = (0...10).publisher.collect(5).sink { print($0) }
    /// // prints [0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10]
    /// ```
    ///
    /// A full array is published as soon as its last element arrives; when the upstream
    /// finishes, the elements collected so far are published, then `.finished`. A
    /// failure goes down at once and the elements collected so far are dropped. A request
    /// for `n` arrays asks upstream for `n * count` elements. The subscriber gets a
    /// subscription of this publisher's own (a request of zero stops the program, as in
    /// Combine); a count below 1 stops the program when a subscriber attaches.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's elements, in arrays.
        public typealias Output = [Upstream.Output]
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of received elements to buffer before publishing.
        public let count: Int

        /// Creates a publisher that publishes the elements of `upstream` in arrays of
        /// `count`.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Attaches `subscriber` to the upstream publisher through the buffer.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == [Upstream.Output], S.Failure == Failure {
            // `fatalError`, not `precondition`: the message must survive -O builds.
            if count < 1 {
                fatalError(
                    "Bindings: collect(\(count)) needs a count of 1 or more (the number of elements in each array it publishes)")
            }
            upstream.subscribe(Inner(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}
extension Publishers.CollectByCount: Sendable where Upstream: Sendable {}

extension Publishers.CollectByCount {
    /// Fills arrays of `count`; it is the subscriber's subscription, so that it can scale
    /// the subscriber's demand.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        private enum State {
            case awaitingSubscription
            case subscribed
            /// The upstream finished: the last elements and `.finished` are on their way.
            case flushing
            case done
        }

        private let count: Int
        /// Guards `state`, `upstream` and `downstream`, which `request`/`cancel` (any
        /// thread) and the upstream's calls share. Never held while calling out.
        private let lock = CompactLock()
        @exclusivity(unchecked) private var state = State.awaitingSubscription
        @exclusivity(unchecked) private var upstream: (any Subscription)?
        @exclusivity(unchecked) private var downstream: Downstream?
        /// Only touched by the upstream's calls, which come one at a time (after a cancel
        /// it is simply left to go with this object).
        @exclusivity(unchecked) private var buffer: [Upstream.Output] = []

        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            self.count = count
        }

        var description: String { "CollectByCount" }

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
            buffer.append(input)
            guard buffer.count == count else { return .none }
            let full = buffer
            buffer = []
            buffer.reserveCapacity(count)
            return downstream.receive(full) * count
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.lock()
            guard case .subscribed = state else {
                lock.unlock()
                return
            }
            let upstream = self.upstream.take()
            let flush = completion.isFinished && !buffer.isEmpty
            state = flush ? .flushing : .done
            let downstream = flush ? self.downstream : self.downstream.take()
            lock.unlock()
            withExtendedLifetime(upstream) {}
            let rest = buffer
            buffer = []
            guard let downstream else { return }
            guard flush else {
                downstream.receive(completion: completion)
                return
            }
            // Within demand: these elements were asked for as part of an array.
            _ = downstream.receive(rest)
            lock.lock()
            guard case .flushing = state else {
                // Cancelled while receiving them.
                lock.unlock()
                return
            }
            state = .done
            let released = self.downstream.take()
            lock.unlock()
            withExtendedLifetime(released) {}
            downstream.receive(completion: .finished)
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero()
            lock.lock()
            let upstream = if case .subscribed = state { self.upstream } else { nil as (any Subscription)? }
            lock.unlock()
            upstream?.request(demand * count)
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
    }
}

extension Publisher {
    /// Collects up to the specified number of elements, and then emits a single array of
    /// the collection; the elements left when the upstream finishes come as a last,
    /// shorter array. A count below 1 stops the program.
    ///
    /// ```swift
    /// let c = (0...10).publisher.collect(5).sink { print($0) }
    /// // prints [0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10]
    /// ```
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}
