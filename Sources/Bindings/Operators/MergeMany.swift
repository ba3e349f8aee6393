extension Publishers {
    /// A publisher created by applying the merge function to an arbitrary number of
    /// upstream publishers, as in Combine.
    ///
    /// It finishes when every upstream has finished (at once when there is none) and fails
    /// as soon as one fails (cancelling the others). Demand and threading work as for
    /// ``Publishers/Merge``.
    ///
    /// ```swift
    /// let c = Publishers.MergeMany(sensors.map(\.readings)).sink { print($0) }
    /// ```
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The upstreams' output type.
        public typealias Output = Upstream.Output
        /// The upstreams' failure type.
        public typealias Failure = Upstream.Failure

        /// The publishers that this publisher merges.
        public let publishers: [Upstream]

        /// Creates a publisher that merges the elements of the given publishers.
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher that merges the elements of a sequence of publishers.
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Gives `subscriber` its subscription, then subscribes to every publisher in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // "Merge": Combine names `MergeMany`'s subscription as `merge(with:)`'s.
            let core = MergeCore(downstream: subscriber, count: publishers.count, description: "Merge")
            subscriber.receive(subscription: core)
            for (id, publisher) in publishers.enumerated() {
                publisher.subscribe(core.side(id))
            }
            if publishers.isEmpty { core.finishIfEmpty() }
        }

        /// Returns a publisher that also merges the elements of `other`.
        ///
        /// ```swift
        /// let all = Publishers.MergeMany(a, b).merge(with: c)
        /// ```
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Combines elements from this publisher with those from another publisher of the
    /// same type, delivering an interleaved sequence of elements.
    ///
    /// As in Combine, two publishers of one type merge into a ``Publishers/MergeMany``
    /// (this overload is preferred over the generic one that makes a ``Publishers/Merge``).
    ///
    /// ```swift
    /// let c = taps.merge(with: keys).sink { print($0) }   // both PassthroughSubject<String, Never>
    /// ```
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}
