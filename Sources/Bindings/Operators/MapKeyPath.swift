extension Publishers {
    /// A publisher that publishes the value of a key path of each upstream element, as
    /// in Combine.
    ///
    /// ```swift
    /// let c = Just("hello").map(\.count).sink { print($0) }   // prints 5
    /// ```
    ///
    /// Like ``Map``, it passes the upstream subscription straight to the subscriber.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The key path of a property on the upstream's output.
        public let keyPath: KeyPath<Upstream.Output, Output>

        /// Creates a publisher that reads `keyPath` of each upstream element.
        public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        // `@inlinable` (here and in `Inner`): the per-value work is a key-path read and
        // a forward; inlined, it is specialised for the client's concrete types.
        /// Attaches `subscriber` to the upstream publisher through the key path.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Upstream.Failure {
            upstream.subscribe(Inner(downstream: subscriber, keyPath: keyPath))
        }
    }
}

extension Publishers.MapKeyPath {
    /// Reads the key path of each value; passes the upstream subscription through.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let keyPath: KeyPath<Upstream.Output, Output>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.downstream = downstream
            self.keyPath = keyPath
        }

        @usableFromInline var description: String { "ValueForKey" }

        /// The key path, as Combine shows it.
        @usableFromInline var customMirror: Mirror { Mirror(self, children: ["keyPath": keyPath]) }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input[keyPath: keyPath])
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }
    }
}

extension Publisher {
    /// Publishes the value of a key path of each element.
    ///
    /// ```swift
    /// let c = names.map(\.count).sink { print($0) }
    /// ```
    @inlinable
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }
}
