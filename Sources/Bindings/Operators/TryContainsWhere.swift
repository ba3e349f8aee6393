extension Publishers {
    /// A publisher that publishes whether its upstream publishes an element that
    /// satisfies an error-throwing predicate, as in Combine.
    ///
    /// ```swift
    /// let c = records.tryContains { try $0.isExpired() }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// When the predicate throws, the upstream subscription is cancelled and the
    /// subscriber fails with the error at once. Otherwise it behaves as
    /// ``ContainsWhere``.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published: the answer.
        public typealias Output = Bool
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// predicate throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether this publisher should emit
        /// a `true` element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes whether `upstream` publishes an element
        /// that satisfies `predicate`, failing with what it throws.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` to the upstream publisher through the predicate.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == any Error {
            upstream.subscribe(ReduceInner(stage: Stage(predicate: predicate), downstream: subscriber))
        }
    }
}

extension Publishers.TryContainsWhere {
    /// Tests each value until one matches; a thrown error ends the stream.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var found = false
        @usableFromInline let predicate: (Upstream.Output) throws -> Bool

        @inlinable
        init(predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "TryContainsWhere" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<any Error> {
            do {
                guard try predicate(input) else { return .more }
                found = true
                return .done
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        mutating func takeResult() -> Bool? { found }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the
    /// error-throwing predicate closure, or `false` if the upstream finishes without one;
    /// a thrown error cancels the upstream and fails the subscriber with it.
    ///
    /// ```swift
    /// let c = records.tryContains { try $0.isExpired() }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}
