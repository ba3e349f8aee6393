extension Publishers {
    /// A publisher that publishes the greatest element of its upstream by an ordering
    /// closure, once the upstream finishes, as in Combine; `min()`, `max()`, `min(by:)`
    /// and `max(by:)` make one.
    ///
    /// ```swift
    /// let c = [3, 1, 2].publisher.min().sink { print($0) }   // prints 1
    /// ```
    ///
    /// It keeps the first element, then replaces it with each later element `e` for which
    /// `areInIncreasingOrder(kept, e)` holds, so that of equal elements the first is
    /// published. It asks upstream for everything at once; the element waits for the
    /// subscriber's request, then `.finished` follows. An empty upstream gives
    /// `.finished` alone; a failure goes down at once.
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that receives two elements and returns `true` if they are in
        /// increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that publishes the greatest element of `upstream` by
        /// `areInIncreasingOrder`.
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches `subscriber` to the upstream publisher through the comparison.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                ReduceInner(stage: Stage(areInIncreasingOrder: areInIncreasingOrder), downstream: subscriber))
        }
    }
}

extension Publishers.Comparison {
    /// Keeps the greatest element so far.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var kept: Upstream.Output?
        @usableFromInline let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        @inlinable
        init(areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        @usableFromInline static var name: String { "Comparison" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            if let kept, !areInIncreasingOrder(kept, input) { return .more }
            kept = input
            return .more
        }

        @inlinable
        mutating func takeResult() -> Upstream.Output? { kept.take() }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher where Output: Comparable {
    /// Publishes the minimum value received from the upstream publisher, once it
    /// finishes.
    ///
    /// ```swift
    /// let c = [3, 1, 2].publisher.min().sink { print($0) }   // prints 1
    /// ```
    @inlinable
    public func min() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: >)
    }

    /// Publishes the maximum value received from the upstream publisher, once it
    /// finishes.
    ///
    /// ```swift
    /// let c = [3, 1, 2].publisher.max().sink { print($0) }   // prints 3
    /// ```
    @inlinable
    public func max() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: <)
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher by the given
    /// ordering, once it finishes.
    ///
    /// ```swift
    /// let c = words.min { $0.count < $1.count }.sink { print($0) }   // the shortest word
    /// ```
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher by the given
    /// ordering, once it finishes.
    ///
    /// ```swift
    /// let c = words.max { $0.count < $1.count }.sink { print($0) }   // the longest word
    /// ```
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}
