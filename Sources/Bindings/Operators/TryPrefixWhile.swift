extension Publishers {
    /// A publisher that republishes elements while an error-throwing predicate closure
    /// indicates publishing should continue, then finishes, as in Combine.
    ///
    /// ```swift
    /// let c = lines.tryPrefix { try !isTrailer($0) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// When the predicate throws, the upstream subscription is cancelled and the
    /// subscriber fails with the error. Otherwise it behaves as ``PrefixWhile``.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// predicate throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes the elements of `upstream` while
        /// `predicate` returns `true`, failing with what it throws.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
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

extension Publishers.TryPrefixWhile {
    /// Passes values until the predicate says no, then finishes; a thrown error ends the
    /// stream with a failure.
    @usableFromInline
    struct Stage: OperatorStage {
        @usableFromInline let predicate: (Upstream.Output) throws -> Bool

        @inlinable
        init(predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "TryPrefixWhile" }
        @usableFromInline static var trapsOnZeroDemand: Bool { true }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Upstream.Output, any Error> {
            do {
                return try predicate(input) ? .publish(input) : .finish
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher {
    /// Republishes elements while an error-throwing predicate closure indicates
    /// publishing should continue, then finishes and cancels the upstream subscription; a
    /// thrown error cancels the upstream and fails the subscriber with it.
    ///
    /// ```swift
    /// let c = lines.tryPrefix { try !isTrailer($0) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}
