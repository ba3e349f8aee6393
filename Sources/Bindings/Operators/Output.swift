extension Publishers {
    /// A publisher that publishes the elements of its upstream whose positions fall in a
    /// range, then finishes, as in Combine; ``Publisher/prefix(_:)`` makes one.
    ///
    /// ```swift
    /// let c = clicks.prefix(2).sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// clicks.send(1)   // prints 1
    /// clicks.send(2)   // prints 2, then "finished"; the subscription to clicks is cancelled
    /// ```
    ///
    /// As soon as the last element of the range has been delivered it cancels the
    /// upstream subscription and finishes. Elements before the range are dropped and
    /// replaced by asking upstream for one more each (`.max(1)`).
    public struct Output<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The positions of the elements to publish (0 is the first element).
        public let range: CountableRange<Int>

        /// Creates a publisher that publishes the elements of `upstream` at the
        /// positions in `range`.
        public init(upstream: Upstream, range: CountableRange<Int>) {
            // `fatalError`, not `precondition`: the message must survive -O builds.
            if range.lowerBound < 0 { fatalError("Bindings: Publishers.Output needs a range of positions 0 or more") }
            self.upstream = upstream
            self.range = range
        }

        /// Attaches `subscriber` to the upstream publisher, for the elements in `range`.
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Upstream.Output, S.Failure == Upstream.Failure {
            upstream.subscribe(Inner(downstream: subscriber, range: range))
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}
extension Publishers.Output: Sendable where Upstream: Sendable {}

extension Publishers.Output {
    /// Counts the elements, and ends the stream after the range. It is the subscription
    /// the subscriber gets, so that it can cancel upstream itself.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        private enum State {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminal
        }

        private let downstream: Downstream
        /// Guards `state`, which `request`/`cancel` (any thread) and the upstream's
        /// subscription and completion calls share. Values take it only to end the range.
        private let spin = CompactLock()
        @exclusivity(unchecked) private var state = State.awaitingSubscription
        /// Only touched by the upstream's calls (`receive(subscription:)` reads
        /// `remainingCount`, `receive(_:)` counts down), which come one at a time (the
        /// subscriber contract), so they need no lock.
        @exclusivity(unchecked) private var remainingUntilStart: Int
        @exclusivity(unchecked) private var remainingCount: Int

        init(downstream: Downstream, range: CountableRange<Int>) {
            self.downstream = downstream
            remainingUntilStart = range.lowerBound
            remainingCount = range.count
        }

        var description: String { "Output" }

        func receive(subscription: any Subscription) {
            spin.lock()
            guard case .awaitingSubscription = state else {
                spin.unlock()
                subscription.cancel()
                return
            }
            if remainingCount == 0 {
                // An empty range: nothing to wait for.
                state = .terminal
                spin.unlock()
                subscription.cancel()
                downstream.receive(subscription: Subscriptions.empty)
                downstream.receive(completion: .finished)
                return
            }
            state = .subscribed(subscription)
            spin.unlock()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if remainingUntilStart > 0 {
                remainingUntilStart -= 1
                return .max(1)
            }
            // Zero once the range is over: a late value (one racing a cancel) is dropped.
            guard remainingCount > 0 else { return .none }
            remainingCount -= 1
            let demand = downstream.receive(input)
            guard remainingCount == 0 else { return demand }
            if let upstream = takeUpstream() {
                upstream.cancel()
                downstream.receive(completion: .finished)
            }
            return .none
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard takeUpstream() != nil else { return }
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero()
            spin.lock()
            guard case .subscribed(let upstream) = state else {
                spin.unlock()
                return
            }
            spin.unlock()
            upstream.request(demand)
        }

        func cancel() {
            takeUpstream()?.cancel()
        }

        /// Moves to the terminal state; returns the upstream subscription if this call
        /// did it (so exactly one of finishing, completing and cancelling wins).
        @discardableResult
        private func takeUpstream() -> (any Subscription)? {
            spin.lock()
            defer { spin.unlock() }
            guard case .subscribed(let upstream) = state else { return nil }
            state = .terminal
            return upstream
        }
    }
}

extension Publisher {
    /// Republishes elements up to the specified maximum count, then finishes and cancels
    /// the upstream subscription.
    ///
    /// ```swift
    /// let c = person.$firstName.prefix(1).sink { print($0) }   // the current name only
    /// ```
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if maxLength < 0 { fatalError("Bindings: prefix(\(maxLength)) needs a length of 0 or more") }
        return Publishers.Output(upstream: self, range: 0..<maxLength)
    }
}

extension Publisher {
    /// Publishes the element at `index` in the sequence of published elements (0 is the
    /// first), then finishes and cancels the upstream subscription. An upstream that ends
    /// sooner ends the stream with nothing published. A negative index stops the
    /// program.
    ///
    /// ```swift
    /// let c = ["a", "b", "c"].publisher.output(at: 1).sink { print($0) }   // prints b
    /// ```
    public func output(at index: Int) -> Publishers.Output<Self> {
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if index < 0 { fatalError("Bindings: output(at: \(index)) needs an index of 0 or more (0 is the first element)") }
        return Publishers.Output(upstream: self, range: index..<(index + 1))
    }

    /// Publishes the elements whose positions in the sequence of published elements fall
    /// in `range` (0 is the first), then finishes and cancels the upstream subscription.
    /// A range that starts below 0 stops the program.
    ///
    /// ```swift
    /// let c = (0..<10).publisher.output(in: 2...4).sink { print($0) }   // prints 2, 3, 4
    /// ```
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        let positions = range.relative(to: 0..<Int.max)
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if positions.lowerBound < 0 {
            fatalError("Bindings: output(in:) needs a range of positions 0 or more (0 is the first element), not \(positions)")
        }
        return Publishers.Output(upstream: self, range: positions)
    }
}
