extension Publishers {
    /// A publisher that publishes the last element of a stream that satisfies a
    /// predicate, once the stream finishes, as in Combine.
    ///
    /// ```swift
    /// let c = [1, 5, 3, 7, 2].publisher.last { $0 > 4 }.sink { print($0) }   // prints 7
    /// ```
    ///
    /// It asks upstream for everything at once; the last match waits for the
    /// subscriber's request, then `.finished` follows. An upstream that finishes with no
    /// match gives `.finished` alone; a failure goes down at once.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that publishes the last element of `upstream` that
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

extension Publishers.LastWhere {
    /// Keeps the latest value that matches.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var match: Upstream.Output?
        @usableFromInline let predicate: (Upstream.Output) -> Bool

        @inlinable
        init(predicate: @escaping (Upstream.Output) -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "LastWhere" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            if predicate(input) { match = input }
            return .more
        }

        @inlinable
        mutating func takeResult() -> Upstream.Output? { match.take() }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Publishes the last element of a stream that satisfies a predicate closure, after
    /// upstream finishes.
    ///
    /// ```swift
    /// let c = [1, 5, 3, 7, 2].publisher.last { $0 > 4 }.sink { print($0) }   // prints 7
    /// ```
    @inlinable
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }
}
