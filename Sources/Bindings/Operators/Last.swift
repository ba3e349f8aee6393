extension Publishers {
    /// A publisher that publishes the last element of a stream, after the stream
    /// finishes, as in Combine.
    ///
    /// ```swift
    /// let c = [3, 1, 2].publisher.last().sink { print($0) }   // prints 2
    /// ```
    ///
    /// It asks upstream for everything at once; the last element waits for the
    /// subscriber's request, then `.finished` follows. An upstream that finishes empty
    /// gives `.finished` alone; a failure goes down at once.
    public struct Last<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the last element of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the upstream publisher, for its last element.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReduceInner(stage: Stage(), downstream: subscriber))
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}
extension Publishers.Last: Sendable where Upstream: Sendable {}

extension Publishers.Last {
    /// Keeps the latest value.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var last: Upstream.Output?

        @inlinable
        init() {}

        @usableFromInline static var name: String { "Last" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            last = input
            return .more
        }

        @inlinable
        mutating func takeResult() -> Upstream.Output? { last.take() }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Publishes the last element of a stream, after the stream finishes.
    ///
    /// ```swift
    /// let c = [3, 1, 2].publisher.last().sink { print($0) }   // prints 2
    /// ```
    @inlinable
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }
}
