extension Publisher {
    /// Buffers up to `size` values that arrive before the subscriber asks for them, as in
    /// Combine.
    ///
    /// ```swift
    /// let c = readings
    ///     .buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest)
    ///     .subscribe(slowConsumer)
    /// ```
    ///
    /// `prefetch`: `.keepFull` asks the upstream for `size` values at once and for one more
    /// each time one is delivered; `.byRequest` asks it for everything. `whenFull`: a value
    /// arriving when the buffer is full is dropped (`.dropNewest`), replaces the oldest
    /// (`.dropOldest`), or fails the stream with the error made by `.customError` (the
    /// upstream is cancelled). A `.finished` from the upstream is delivered once the
    /// buffered values are; a failure as soon as no value is asked for.
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// How a ``Buffer`` asks its upstream for values, as in Combine.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Asks for `size` values at the start, then one more for each value delivered.
        case keepFull
        /// Asks for every value at the start.
        case byRequest
    }

    /// What a ``Buffer`` does with a value that arrives when it is full, as in Combine.
    public enum BufferingStrategy<Failure: Error> {
        /// Drops the value that arrived.
        case dropNewest
        /// Drops the oldest buffered value, and keeps the one that arrived.
        case dropOldest
        /// Fails the stream with the error that the closure makes.
        case customError(() -> Failure)
    }

    /// A publisher that buffers the values its subscriber has not asked for yet, as in
    /// Combine. Create one with ``Publisher/buffer(size:prefetch:whenFull:)``.
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The kind of values this publisher publishes: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The most values buffered.
        public let size: Int
        /// How the upstream is asked for values.
        public let prefetch: PrefetchStrategy
        /// What happens to a value that arrives when the buffer is full.
        public let whenFull: BufferingStrategy<Failure>

        /// Creates a publisher that buffers up to `size` of `upstream`'s values.
        public init(upstream: Upstream, size: Int, prefetch: PrefetchStrategy, whenFull: BufferingStrategy<Failure>) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Subscribes `subscriber` to the upstream through the buffering subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // `fatalError`, not `precondition`: a release build prints its message.
            if size < 0 { fatalError("Bindings: buffer(size: \(size)) needs a size of 0 or more") }
            upstream.subscribe(Inner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

extension Publishers.Buffer {
    /// The subscription. One thread at a time drains (`draining`); events and requests
    /// that arrive meanwhile only change the state under the lock, and the drainer's loop
    /// picks them up, so the subscriber is never called twice at once.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output

        private let size: Int
        private let prefetch: Publishers.PrefetchStrategy
        private let whenFull: Publishers.BufferingStrategy<Failure>
        private let lock = Lock()
        // Guarded by `lock`, which orders every access, so `@exclusivity(unchecked)`: this
        // code runs generic (the upstream calls it through its `Subscriber` conformance),
        // where each access was checked at run time. For the same reason the per-value
        // path touches no generic optional or array: the subscriber is boxed (see
        // `SubscriberBox`), the values are held as `Any` (a value goes in with its type
        // and comes out with a cast that cannot fail), and `hasTerminal` says whether
        // there is a completion without touching it. (686 ns a value before, 617 in
        // OpenCombine.)
        @exclusivity(unchecked) private var downstream: SubscriberBox<Downstream>?
        @exclusivity(unchecked) private var upstream: (any Subscription)?
        @exclusivity(unchecked) private var demand = Subscribers.Demand.none
        @exclusivity(unchecked) private var values: [Any] = []
        /// The completion, once the upstream ended (or the buffer overflowed).
        @exclusivity(unchecked) private var terminal: Subscribers.Completion<Failure>? {
            didSet { hasTerminal = terminal != nil }
        }
        @exclusivity(unchecked) private var hasTerminal = false
        @exclusivity(unchecked) private var draining = false

        init(downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
             whenFull: Publishers.BufferingStrategy<Failure>) {
            self.downstream = SubscriberBox(downstream)
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        var description: String { "Buffer" }

        func receive(subscription: any Subscription) {
            let downstream: SubscriberBox<Downstream>? = lock.withLock {
                guard upstream == nil, !hasTerminal else { return nil }
                upstream = subscription
                return self.downstream
            }
            guard let downstream else {
                subscription.cancel()
                return
            }
            // The subscriber first: an upstream that completes as soon as it is asked
            // would otherwise deliver the completion before the subscription. Not asked
            // at all if the subscriber cancelled meanwhile.
            downstream.subscriber.receive(subscription: self)
            guard lock.withLock({ upstream != nil }) else { return }
            subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard upstream != nil, !hasTerminal else {
                lock.unlock()
                return .none
            }
            if values.count >= size {
                guard lockedOverflow(input) else { return .none }   // it unlocked
            } else {
                values.append(input)
                lock.unlock()
            }
            return drain()
        }

        /// With the lock held, which it gives up: the buffer is full when `input` comes.
        /// Returns whether to drain. Out of line: the strategy is an enum of a generic
        /// type (see `downstream`).
        @inline(never)
        private func lockedOverflow(_ input: Input) -> Bool {
            var overflowed: (any Subscription)?
            switch whenFull {
            case .dropNewest:
                lock.unlock()
                return false
            case .dropOldest:
                if !values.isEmpty { values.removeFirst() }
                values.append(input)
            case .customError(let makeError):
                terminal = .failure(makeError())
                overflowed = upstream.take()
            }
            lock.unlock()
            overflowed?.cancel()
            return true
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            let accepted = lock.withLock { () -> Bool in
                guard upstream != nil, !hasTerminal else { return false }
                terminal = completion
                upstream = nil
                return true
            }
            if accepted { _ = drain() }
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero()
            let upstream: (any Subscription)? = lock.withLock {
                guard downstream != nil else { return nil }
                self.demand += demand
                return self.upstream
            }
            let refill = drain()
            if refill > .none { upstream?.request(refill) }
        }

        func cancel() {
            let dropped: ((any Subscription)?, SubscriberBox<Downstream>?, [Any]) = lock.withLock {
                let dropped = (upstream.take(), downstream.take(), values)
                values = []
                terminal = terminal ?? .finished   // nothing more is accepted
                return dropped
            }
            dropped.0?.cancel()
            withExtendedLifetime(dropped) {}
        }

        /// Delivers what is buffered, as demand allows, then the completion when it may
        /// go; returns the refill to ask the upstream for (`.keepFull`: one per value
        /// delivered). Another thread draining already: it picks up the change.
        private func drain() -> Subscribers.Demand {
            var refill = Subscribers.Demand.none
            lock.lock()
            guard !draining else {
                lock.unlock()
                return .none
            }
            draining = true
            while let downstream {
                if demand > .none, !values.isEmpty {
                    let value = values.removeFirst()
                    demand -= 1
                    lock.unlock()
                    // Cannot fail: `receive(_:)` stored an `Input`. Consumed, so that this
                    // copy is released before the lock is taken again (the value's
                    // `deinit` may run user code).
                    let more = downstream.subscriber.receive((consume value) as! Input)
                    lock.lock()
                    demand += more
                    if prefetch == .keepFull { refill += 1 }
                    continue
                }
                if hasTerminal, let finished = lockedFinishIfDue(downstream) {
                    return finished
                }
                break
            }
            draining = false
            lock.unlock()
            return refill
        }

        /// With the lock held: delivers the completion if it may go now (a finish waits
        /// for the buffered values; a failure goes when nothing is asked for), giving up
        /// the lock, and returns `.none`; else returns `nil`, the lock still held.
        @inline(never)
        private func lockedFinishIfDue(_ downstream: SubscriberBox<Downstream>) -> Subscribers.Demand? {
            if let terminal, values.isEmpty || demand == .none, case .failure = terminal {
                return finish(downstream, terminal)
            }
            if let terminal, values.isEmpty {
                return finish(downstream, terminal)
            }
            return nil
        }

        /// With the lock held, which it gives up: delivers the completion, once, and lets
        /// go of the subscriber.
        private func finish(_ downstream: SubscriberBox<Downstream>, _ completion: Subscribers.Completion<Failure>) -> Subscribers.Demand {
            self.downstream = nil
            values = []
            lock.unlock()
            downstream.subscriber.receive(completion: completion)
            return .none
        }
    }
}
