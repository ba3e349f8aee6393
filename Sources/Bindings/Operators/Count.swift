extension Publishers {
    /// A publisher that publishes the number of elements received from the upstream
    /// publisher, once it finishes, as in Combine.
    ///
    /// ```swift
    /// let c = clicks.count().sink { print($0) }   // after clicks finishes: how many there were
    /// ```
    ///
    /// It asks upstream for everything at once; the count waits for the subscriber's
    /// request, then `.finished` follows. A failure goes down at once.
    public struct Count<Upstream: Publisher>: Publisher {
        /// The kind of values published: a count.
        public typealias Output = Int
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that counts the elements of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the upstream publisher through the counter.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
            upstream.subscribe(ReduceInner(stage: Stage(), downstream: subscriber))
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}
extension Publishers.Count: Sendable where Upstream: Sendable {}

extension Publishers.Count {
    /// Counts the values.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var count = 0

        @inlinable
        init() {}

        @usableFromInline static var name: String { "Count" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            count += 1
            return .more
        }

        @inlinable
        mutating func takeResult() -> Int? { count }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Publishes the number of elements received from the upstream publisher, once it
    /// finishes.
    ///
    /// ```swift
    /// let c = [3, 1, 2].publisher.count().sink { print($0) }   // prints 3
    /// ```
    @inlinable
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}
