extension Publishers {
    /// A publisher that republishes only the elements that match a predicate, as in
    /// Combine.
    ///
    /// ```swift
    /// let c = numbers.filter { $0.isMultiple(of: 2) }.sink { print($0) }
    /// ```
    ///
    /// The subscriber receives the upstream subscription; each dropped element is
    /// replaced by asking upstream for one more (`.max(1)`), so a subscriber that asked
    /// for `n` elements still gets `n` matching ones.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that returns whether to republish an element.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes the elements for which `isIncluded`
        /// returns `true`.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        // `@inlinable` (here and in `Inner`): a value costs one predicate call and one
        // forward; inlined, a client's pipeline is specialised for its concrete types.
        /// Attaches `subscriber` to the upstream publisher through the predicate.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, isIncluded: isIncluded))
        }

        /// Not for use: the upstream's fused sink, through the predicate (see
        /// `Publisher._fusedSink`).
        @inlinable
        public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
            let isIncluded = self.isIncluded
            return upstream._fusedSink { if isIncluded($0) { receiveValue($0) } }
        }
    }
}

extension Publishers.Filter {
    /// Returns a single `Filter` that republishes the elements that pass both this
    /// predicate and `isIncluded`, as Combine fuses consecutive filters.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }

    /// Tests each value; passes the upstream subscription through.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let isIncluded: (Output) -> Bool
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, isIncluded: @escaping (Output) -> Bool) {
            self.downstream = downstream
            self.isIncluded = isIncluded
        }

        @usableFromInline var description: String { "Filter" }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            // A dropped element used up one unit of demand that the subscriber did not
            // see: ask for a replacement.
            isIncluded(input) ? downstream.receive(input) : .max(1)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }
    }
}

extension Publisher {
    /// Republishes all elements that match a provided closure.
    ///
    /// ```swift
    /// let c = numbers.filter { $0 > 2 }.sink { print($0) }   // 1, 2, 3, 4 print 3, 4
    /// ```
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}
