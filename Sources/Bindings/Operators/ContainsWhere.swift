extension Publishers {
    /// A publisher that publishes whether its upstream publishes an element that
    /// satisfies a predicate, as in Combine.
    ///
    /// ```swift
    /// let c = [1, 5, 3].publisher.contains { $0 > 4 }.sink { print($0) }   // prints true
    /// ```
    ///
    /// The first element that satisfies the predicate settles it: the upstream
    /// subscription is cancelled and `true` is published. Otherwise `false` is published
    /// when the upstream finishes. It asks upstream for everything at once; the answer
    /// waits for the subscriber's request, then `.finished` follows. A failure goes down
    /// at once.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published: the answer.
        public typealias Output = Bool
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether the publisher should consider an element
        /// a match.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that publishes whether `upstream` publishes an element
        /// that satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` to the upstream publisher through the predicate.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
            upstream.subscribe(ReduceInner(stage: Stage(predicate: predicate), downstream: subscriber))
        }
    }
}

extension Publishers.ContainsWhere {
    /// Tests each value until one matches.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var found = false
        @usableFromInline let predicate: (Upstream.Output) -> Bool

        @inlinable
        init(predicate: @escaping (Upstream.Output) -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "ContainsWhere" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            guard predicate(input) else { return .more }
            found = true
            return .done
        }

        @inlinable
        mutating func takeResult() -> Bool? { found }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the predicate
    /// closure, or `false` if the upstream finishes without one.
    ///
    /// ```swift
    /// let c = [1, 5, 3].publisher.contains { $0 > 4 }.sink { print($0) }   // prints true
    /// ```
    @inlinable
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }
}
