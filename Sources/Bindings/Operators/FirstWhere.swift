extension Publishers {
    /// A publisher that publishes the first element of a stream that satisfies a
    /// predicate, then finishes, as in Combine.
    ///
    /// ```swift
    /// let c = [1, 5, 3, 7].publisher.first { $0 > 4 }.sink { print($0) }   // prints 5
    /// ```
    ///
    /// The first match cancels the upstream subscription at once; it is published when
    /// the subscriber has asked for it, then `.finished` follows. An upstream that
    /// finishes with no match gives `.finished` alone; a failure goes down at once.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that publishes the first element of `upstream` that
        /// satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` to the upstream publisher through the predicate.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReduceInner(stage: Stage(predicate: predicate), downstream: subscriber))
        }
    }
}

extension Publishers.FirstWhere {
    /// Tests each value until one matches.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var match: Upstream.Output?
        @usableFromInline let predicate: (Upstream.Output) -> Bool

        @inlinable
        init(predicate: @escaping (Upstream.Output) -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "FirstWhere" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            guard predicate(input) else { return .more }
            match = input
            return .done
        }

        @inlinable
        mutating func takeResult() -> Upstream.Output? { match.take() }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Publishes the first element of a stream to satisfy a predicate closure, then
    /// finishes.
    ///
    /// ```swift
    /// let c = [1, 5, 3, 7].publisher.first { $0 > 4 }.sink { print($0) }   // prints 5
    /// ```
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }
}
