extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given
    /// error-throwing closure returns `false`, then republishes all later elements, as in
    /// Combine.
    ///
    /// ```swift
    /// let c = lines.tryDrop { try isHeader($0) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// When the predicate throws, the upstream subscription is cancelled and the
    /// subscriber fails with the error. Otherwise it behaves as ``DropWhile``.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// predicate throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that indicates whether to drop the element.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher that drops the elements of `upstream` while `predicate`
        /// returns `true`, failing with what it throws.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` to the upstream publisher through the predicate.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(StageInner(stage: Stage(predicate: predicate), downstream: subscriber))
        }
    }
}

extension Publishers.TryDropWhile {
    /// Drops values until the predicate first says no; a thrown error ends the stream.
    @usableFromInline
    struct Stage: OperatorStage {
        /// Set to `nil` once it returns `false`: from then on every value passes.
        @usableFromInline var predicate: ((Upstream.Output) throws -> Bool)?

        @inlinable
        init(predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "TryDropWhile" }
        @usableFromInline static var trapsOnZeroDemand: Bool { false }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Upstream.Output, any Error> {
            if let predicate {
                do {
                    if try predicate(input) { return .drop }
                } catch {
                    return .fail(error)
                }
                self.predicate = nil
            }
            return .publish(input)
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher {
    /// Omits elements from the upstream publisher until an error-throwing closure returns
    /// `false`, before republishing all remaining elements; a thrown error cancels the
    /// upstream and fails the subscriber with it.
    ///
    /// ```swift
    /// let c = lines.tryDrop { try isHeader($0) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}
