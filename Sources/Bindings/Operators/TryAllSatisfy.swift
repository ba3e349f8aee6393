extension Publishers {
    /// A publisher that publishes whether all elements of its upstream satisfy an
    /// error-throwing predicate, as in Combine.
    ///
    /// ```swift
    /// let c = files.tryAllSatisfy { try $0.isReadable() }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// When the predicate throws, the upstream subscription is cancelled and the
    /// subscriber fails with the error at once. Otherwise it behaves as ``AllSatisfy``.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// The kind of values published: the answer.
        public typealias Output = Bool
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// predicate throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that evaluates each received element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes whether every element of `upstream`
        /// satisfies `predicate`, failing with what it throws.
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

extension Publishers.TryAllSatisfy {
    /// Tests each value until one fails; a thrown error ends the stream.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var satisfied = true
        @usableFromInline let predicate: (Upstream.Output) throws -> Bool

        @inlinable
        init(predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "TryAllSatisfy" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<any Error> {
            do {
                if try predicate(input) { return .more }
                satisfied = false
                return .done
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        mutating func takeResult() -> Bool? { satisfied }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass
    /// a given error-throwing predicate; a thrown error cancels the upstream and fails
    /// the subscriber with it.
    ///
    /// ```swift
    /// let c = files.tryAllSatisfy { try $0.isReadable() }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}
