extension Publishers {
    /// A publisher that publishes the first element of a stream, then finishes, as in
    /// Combine.
    ///
    /// ```swift
    /// let c = person.$firstName.first().sink { print($0) }   // the current name, then finished
    /// ```
    ///
    /// The first element cancels the upstream subscription at once; it is published when
    /// the subscriber has asked for it, then `.finished` follows. An upstream that
    /// finishes empty gives `.finished` alone; a failure goes down at once.
    public struct First<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the first element of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the upstream publisher, for its first element.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReduceInner(stage: Stage(), downstream: subscriber))
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}
extension Publishers.First: Sendable where Upstream: Sendable {}

extension Publishers.First {
    /// Takes the first value and stops.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var first: Upstream.Output?

        @inlinable
        init() {}

        @usableFromInline static var name: String { "First" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            first = input
            return .done
        }

        @inlinable
        mutating func takeResult() -> Upstream.Output? { first.take() }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Publishes the first element of a stream, then finishes.
    ///
    /// ```swift
    /// let c = [3, 1, 2].publisher.first().sink { print($0) }   // prints 3
    /// ```
    @inlinable
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }
}
