extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a
    /// provided closure, as in Combine.
    ///
    /// ```swift
    /// let c = prices.map { $0 * 2 }.sink { print($0) }   // 21 prints 42
    /// ```
    ///
    /// Like Combine's, it adds no subscription of its own: the subscriber receives the
    /// upstream subscription, so demand and cancellation go straight upstream and a value
    /// costs one closure call.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) -> Output

        /// Creates a publisher that transforms each upstream element with `transform`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        // `@inlinable` (here and in `Inner`): a value costs one closure call and one
        // forward; inlined, a client's pipeline is specialised for its concrete types
        // instead of going through generic witness tables for every value.
        /// Attaches `subscriber` to the upstream publisher through the transform.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Upstream.Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.Map {
    /// Not for use: the upstream's fused sink, through the transform (see
    /// `Publisher._fusedSink`).
    @inlinable
    public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
        let transform = self.transform
        return upstream._fusedSink { receiveValue(transform($0)) }
    }

    /// Returns a single `Map` that applies this transform, then `transform`, as
    /// Combine fuses consecutive maps.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map<Upstream, T>(upstream: upstream) { transform(first($0)) }
    }

    /// Transforms each value, then passes the upstream subscription through unchanged.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Output) -> Output
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
            self.downstream = downstream
            self.transform = transform
        }

        @usableFromInline var description: String { "Map" }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(transform(input))
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }
    }
}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided closure.
    ///
    /// ```swift
    /// let c = subject.map { $0.uppercased() }.sink { print($0) }
    /// ```
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publisher {
    /// Replaces each `nil` element with `output`.
    ///
    /// ```swift
    /// let c = nicknames.replaceNil(with: "-").sink { print($0) }   // "ada" prints ada, nil prints -
    /// ```
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
