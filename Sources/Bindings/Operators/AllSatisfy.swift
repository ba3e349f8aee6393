extension Publishers {
    /// A publisher that publishes whether all elements of its upstream satisfy a
    /// predicate, as in Combine.
    ///
    /// ```swift
    /// let c = [2, 4, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }.sink { print($0) }   // prints true
    /// ```
    ///
    /// The first element that fails the predicate settles it: the upstream subscription
    /// is cancelled and `false` is published. Otherwise `true` is published when the
    /// upstream finishes (an empty upstream too). It asks upstream for everything at
    /// once; the answer waits for the subscriber's request, then `.finished` follows. A
    /// failure goes down at once.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// The kind of values published: the answer.
        public typealias Output = Bool
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that evaluates each received element: `true` to go on, `false` to
        /// publish `false`.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that publishes whether every element of `upstream`
        /// satisfies `predicate`.
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

extension Publishers.AllSatisfy {
    /// Tests each value until one fails.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var satisfied = true
        @usableFromInline let predicate: (Upstream.Output) -> Bool

        @inlinable
        init(predicate: @escaping (Upstream.Output) -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "AllSatisfy" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            if predicate(input) { return .more }
            satisfied = false
            return .done
        }

        @inlinable
        mutating func takeResult() -> Bool? { satisfied }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass
    /// a given predicate.
    ///
    /// ```swift
    /// let c = [2, 4, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }.sink { print($0) }   // prints true
    /// ```
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }
}
