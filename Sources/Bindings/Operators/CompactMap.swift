extension Publishers {
    /// A publisher that republishes the non-`nil` results of calling a closure with
    /// each upstream element, as in Combine.
    ///
    /// ```swift
    /// let c = text.compactMap { Int($0) }.sink { print($0) }   // "1", "x", "3" print 1, 3
    /// ```
    ///
    /// The subscriber receives the upstream subscription; each `nil` result is replaced
    /// by asking upstream for one more element (`.max(1)`).
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that receives an element and returns a value to publish, or `nil`
        /// to drop the element.
        public let transform: (Upstream.Output) -> Output?

        /// Creates a publisher that republishes the non-`nil` results of `transform`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        // `@inlinable` (here and in `Inner`): a value costs one closure call and one
        // forward; inlined, a client's pipeline is specialised for its concrete types.
        /// Attaches `subscriber` to the upstream publisher through the transform.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }

        /// Not for use: the upstream's fused sink, through the transform (see
        /// `Publisher._fusedSink`).
        @inlinable
        public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
            let transform = self.transform
            return upstream._fusedSink { if let value = transform($0) { receiveValue(value) } }
        }
    }
}

extension Publishers.CompactMap {
    /// Transforms each value and drops `nil`s; passes the upstream subscription through.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Output) -> Output?
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.downstream = downstream
            self.transform = transform
        }

        @usableFromInline var description: String { "CompactMap" }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let output = transform(input) else {
                // The dropped element used up one unit of demand: ask for a replacement.
                return .max(1)
            }
            return downstream.receive(output)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }
    }
}

extension Publisher {
    /// Calls a closure with each received element and publishes any returned
    /// non-`nil` value.
    ///
    /// ```swift
    /// let c = text.compactMap { Int($0) }.sink { print($0) }
    /// ```
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

extension Publishers.CompactMap {
    /// Returns a single `CompactMap` that applies this transform, then `transform`, as
    /// Combine fuses consecutive `compactMap`s.
    ///
    /// ```swift
    /// let p: Publishers.CompactMap<PassthroughSubject<String, Never>, Int> =
    ///     text.compactMap { Int($0) }.compactMap { $0 > 0 ? $0 : nil }
    /// ```
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap<Upstream, T>(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// Returns a single `CompactMap` that applies this transform, then `transform` to its
    /// non-`nil` results, as Combine fuses a `map` after a `compactMap`.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap<Upstream, T>(upstream: upstream) { first($0).map(transform) }
    }
}
