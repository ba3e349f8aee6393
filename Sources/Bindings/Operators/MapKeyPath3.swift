extension Publishers {
    /// A publisher that publishes the values of three key paths of each upstream element,
    /// as a tuple, as in Combine.
    ///
    /// ```swift
    /// let c = people.map(\.firstName, \.lastName, \.age).sink { first, last, age in print(first, last, age) }
    /// ```
    ///
    /// Like ``MapKeyPath``, it passes the upstream subscription straight to the
    /// subscriber.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// The kind of values published: the three values, as a tuple.
        public typealias Output = (Output0, Output1, Output2)
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The key path of a property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>

        /// The key path of a second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// The key path of a third property to publish.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        /// Creates a publisher that reads `keyPath0`, `keyPath1` and `keyPath2` of each
        /// upstream element.
        public init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        // `@inlinable` (here and in `Inner`): the per-value work is three key-path reads
        // and a forward; inlined, it is specialised for the client's concrete types.
        /// Attaches `subscriber` to the upstream publisher through the key paths.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == (Output0, Output1, Output2), S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2))
        }
    }
}

extension Publishers.MapKeyPath3 {
    /// Reads the key paths of each value; passes the upstream subscription through.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == (Output0, Output1, Output2), Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let keyPath0: KeyPath<Upstream.Output, Output0>
        @usableFromInline let keyPath1: KeyPath<Upstream.Output, Output1>
        @usableFromInline let keyPath2: KeyPath<Upstream.Output, Output2>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(
            downstream: Downstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.downstream = downstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        @usableFromInline var description: String { "ValueForKeys" }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive((input[keyPath: keyPath0], input[keyPath: keyPath1], input[keyPath: keyPath2]))
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }
    }
}

extension Publisher {
    /// Publishes the values of three key paths of each element, as a tuple.
    ///
    /// ```swift
    /// let c = people.map(\.firstName, \.lastName, \.age).sink { first, last, age in print(first, last, age) }
    /// ```
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}
