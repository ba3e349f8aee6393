import Synchronization

extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later
    /// elements, as in Combine.
    ///
    /// ```swift
    /// let c = numbers.dropFirst().sink { print($0) }   // 1, 2, 3 print 2, 3
    /// ```
    ///
    /// As in Combine, it asks upstream for the `count` elements it drops as soon as it
    /// subscribes, on top of whatever the subscriber requests, so the subscriber's demand
    /// is spent only on elements it receives. The subscriber receives the upstream
    /// subscription itself.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that drops the first `count` elements of `upstream`. A
        /// negative count stops the program when a subscriber attaches, as in Combine.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        // `@inlinable` (here and in `Inner`): a value costs a counter check and a
        // forward; inlined, a client's pipeline is specialised for its concrete types.
        /// Attaches `subscriber` to the upstream publisher, after the dropped elements.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            if count < 0 { Self.negativeCount(count) }
            upstream.subscribe(Inner(downstream: subscriber, count: count))
        }

        /// Stops the program: a negative count (at subscription, where Combine traps).
        /// `fatalError`, not `precondition`: the message must survive -O builds.
        @usableFromInline
        static func negativeCount(_ count: Int) -> Never {
            fatalError("Bindings: dropFirst(\(count)) needs a count of 0 or more")
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}
extension Publishers.Drop: Sendable where Upstream: Sendable {}

extension Publishers.Drop {
    /// Counts down the dropped elements. It is the subscriber's subscription, as
    /// Combine's is, so that a zero demand traps here, and that after a cancel or the
    /// completion what a careless upstream still sends is dropped.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let count: Int
        /// Only touched by `receive(_:)`, which the upstream calls one value at a time
        /// (the subscriber contract); `@exclusivity(unchecked)` saves the dynamic
        /// exclusivity check that per-value path would pay.
        @exclusivity(unchecked) @usableFromInline var remaining: Int
        /// Set by a cancel or the completion: nothing more goes downstream.
        @usableFromInline let terminated = Atomic<Bool>(false)
        /// Guards `upstream`.
        @usableFromInline let lock = CompactLock()
        /// The upstream subscription, from its arrival until a cancel or the completion.
        /// `@exclusivity(unchecked)`: `lock` orders every access.
        @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?

        @inlinable
        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            self.count = count
            self.remaining = count
        }

        @usableFromInline var description: String { "Drop" }

        @inlinable
        func receive(subscription: any Subscription) {
            lock.lock()
            guard upstream == nil, !terminated.load(ordering: .relaxed) else {
                lock.unlock()
                subscription.cancel()
                return
            }
            upstream = subscription
            lock.unlock()
            // The subscriber first (so it has its subscription before any event, even
            // when the dropped elements and the completion arrive synchronously), then
            // the demand for the elements that it will never see.
            downstream.receive(subscription: self)
            if count > 0 { subscription.request(.max(count)) }
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            if terminated.load(ordering: .relaxed) { return .none }
            if remaining > 0 {
                // Requested for the drop, not by the subscriber: no replacement.
                remaining -= 1
                return .none
            }
            return downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
            let upstream = lock.withLock { self.upstream.take() }
            withExtendedLifetime(upstream) {}
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero()
            let upstream = lock.withLock { self.upstream }
            upstream?.request(demand)
        }

        @inlinable
        func cancel() {
            terminated.store(true, ordering: .releasing)
            let upstream = lock.withLock { self.upstream.take() }
            upstream?.cancel()
        }
    }
}

extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// ```swift
    /// let c = person.$firstName.dropFirst().sink { print($0) }   // changes only
    /// ```
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}
