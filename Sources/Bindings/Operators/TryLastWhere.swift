extension Publishers {
    /// A publisher that publishes the last element of a stream that satisfies an
    /// error-throwing predicate, once the stream finishes, as in Combine.
    ///
    /// ```swift
    /// let c = records.tryLast { try $0.isExpired() }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// When the predicate throws, the upstream subscription is cancelled and the
    /// subscriber fails with the error at once. Otherwise it behaves as ``LastWhere``.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// predicate throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes the last element of `upstream` that
        /// satisfies `predicate`, failing with what it throws.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` to the upstream publisher through the predicate.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(ReduceInner(stage: Stage(predicate: predicate), downstream: subscriber))
        }
    }
}

extension Publishers.TryLastWhere {
    /// Keeps the latest value that matches; a thrown error ends the stream.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var match: Upstream.Output?
        @usableFromInline let predicate: (Upstream.Output) throws -> Bool

        @inlinable
        init(predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "TryLastWhere" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<any Error> {
            do {
                if try predicate(input) { match = input }
                return .more
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        mutating func takeResult() -> Upstream.Output? { match.take() }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher {
    /// Publishes the last element of a stream that satisfies an error-throwing predicate
    /// closure, after the stream finishes; a thrown error cancels the upstream and fails
    /// the subscriber with it.
    ///
    /// ```swift
    /// let c = records.tryLast { try $0.isExpired() }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}
