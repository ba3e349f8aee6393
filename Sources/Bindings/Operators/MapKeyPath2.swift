extension Publishers {
    /// A publisher that publishes the values of two key paths of each upstream element,
    /// as a tuple, as in Combine.
    ///
    /// ```swift
    /// let c = people.map(\.firstName, \.age).sink { name, age in print(name, age) }
    /// ```
    ///
    /// Like ``MapKeyPath``, it passes the upstream subscription straight to the
    /// subscriber.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// The kind of values published: the two values, as a tuple.
        public typealias Output = (Output0, Output1)
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The key path of a property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>

        /// The key path of a second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// Creates a publisher that reads `keyPath0` and `keyPath1` of each upstream
        /// element.
        public init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        // `@inlinable` (here and in `Inner`): the per-value work is two key-path reads
        // and a forward; inlined, it is specialised for the client's concrete types.
        /// Attaches `subscriber` to the upstream publisher through the key paths.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == (Output0, Output1), S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, keyPath0: keyPath0, keyPath1: keyPath1))
        }
    }
}

extension Publishers.MapKeyPath2 {
    /// Reads the key paths of each value; passes the upstream subscription through.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == (Output0, Output1), Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let keyPath0: KeyPath<Upstream.Output, Output0>
        @usableFromInline let keyPath1: KeyPath<Upstream.Output, Output1>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(
            downstream: Downstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.downstream = downstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        @usableFromInline var description: String { "ValueForKeys" }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive((input[keyPath: keyPath0], input[keyPath: keyPath1]))
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }
    }
}

extension Publisher {
    /// Publishes the values of two key paths of each element, as a tuple.
    ///
    /// ```swift
    /// let c = people.map(\.firstName, \.age).sink { name, age in print(name, age) }
    /// ```
    @inlinable
    public func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }
}
