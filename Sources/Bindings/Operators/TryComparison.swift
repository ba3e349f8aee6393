extension Publishers {
    /// A publisher that publishes the greatest element of its upstream by an
    /// error-throwing ordering closure, once the upstream finishes, as in Combine;
    /// `tryMin(by:)` and `tryMax(by:)` make one.
    ///
    /// ```swift
    /// let c = readings.tryMax { try compare($0, $1) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// When the closure throws, the upstream subscription is cancelled and the
    /// subscriber fails with the error at once. Otherwise it behaves as ``Comparison``.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that receives two elements and returns `true` if
        /// they are in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes the greatest element of `upstream` by
        /// `areInIncreasingOrder`, failing with what it throws.
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches `subscriber` to the upstream publisher through the comparison.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(
                ReduceInner(stage: Stage(areInIncreasingOrder: areInIncreasingOrder), downstream: subscriber))
        }
    }
}

extension Publishers.TryComparison {
    /// Keeps the greatest element so far; a thrown error ends the stream.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var kept: Upstream.Output?
        @usableFromInline let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        @inlinable
        init(areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        @usableFromInline static var name: String { "TryComparison" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<any Error> {
            do {
                if let kept, try !areInIncreasingOrder(kept, input) { return .more }
                kept = input
                return .more
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        mutating func takeResult() -> Upstream.Output? { kept.take() }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher by the given
    /// error-throwing ordering, once it finishes; a thrown error cancels the upstream and
    /// fails the subscriber with it.
    ///
    /// ```swift
    /// let c = readings.tryMin { try compare($0, $1) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryMin(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher by the given
    /// error-throwing ordering, once it finishes; a thrown error cancels the upstream and
    /// fails the subscriber with it.
    @inlinable
    public func tryMax(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}
