extension Publishers {
    /// A publisher that publishes whether its upstream publishes a given element, as in
    /// Combine.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.contains(2).sink { print($0) }   // prints true
    /// ```
    ///
    /// The first equal element settles it: the upstream subscription is cancelled and
    /// `true` is published. Otherwise `false` is published when the upstream finishes.
    /// It asks upstream for everything at once; the answer waits for the subscriber's
    /// request, then `.finished` follows. A failure goes down at once.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// The kind of values published: the answer.
        public typealias Output = Bool
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The element to look for.
        public let output: Upstream.Output

        /// Creates a publisher that publishes whether `upstream` publishes `output`.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber` to the upstream publisher through the comparison.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
            upstream.subscribe(ReduceInner(stage: Stage(output: output), downstream: subscriber))
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}
extension Publishers.Contains: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

extension Publishers.Contains {
    /// Compares each value with the one looked for.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var found = false
        @usableFromInline let output: Upstream.Output

        @inlinable
        init(output: Upstream.Output) {
            self.output = output
        }

        @usableFromInline static var name: String { "Contains" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            guard input == output else { return .more }
            found = true
            return .done
        }

        @inlinable
        mutating func takeResult() -> Bool? { found }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher where Output: Equatable {
    /// Publishes a Boolean value upon receiving an element equal to the argument, or
    /// `false` if the upstream finishes without one.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.contains(2).sink { print($0) }   // prints true
    /// ```
    @inlinable
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}
