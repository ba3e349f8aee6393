extension Publishers {
    /// A publisher that applies an error-throwing closure to all received elements and
    /// produces an accumulated value when the upstream publisher finishes, as in Combine.
    ///
    /// ```swift
    /// let c = amounts.tryReduce(0) { total, amount in
    ///     guard amount >= 0 else { throw LedgerError.negative(amount) }
    ///     return total + amount
    /// }
    /// .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// When the closure throws, the upstream subscription is cancelled and the
    /// subscriber fails with the error at once. Otherwise it behaves as ``Reduce``.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The value that the first call to `nextPartialResult` receives.
        public let initial: Output

        /// An error-throwing closure that combines the accumulated value and the next
        /// element.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that publishes the result of folding the upstream's
        /// elements into `initial` with `nextPartialResult`, failing with what it throws.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber` to the upstream publisher through the accumulator.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(
                ReduceInner(stage: Stage(result: initial, nextPartialResult: nextPartialResult), downstream: subscriber))
        }
    }
}

extension Publishers.TryReduce {
    /// Folds each value into the running result; a thrown error ends the stream.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var result: Output
        @usableFromInline let nextPartialResult: (Output, Upstream.Output) throws -> Output

        @inlinable
        init(result: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
            self.result = result
            self.nextPartialResult = nextPartialResult
        }

        @usableFromInline static var name: String { "TryReduce" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<any Error> {
            do {
                result = try nextPartialResult(result, input)
                return .more
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        mutating func takeResult() -> Output? { result }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher {
    /// Applies an error-throwing closure that collects each element of a stream and
    /// publishes a final result upon completion; a thrown error cancels the upstream and
    /// fails the subscriber with it.
    ///
    /// ```swift
    /// let c = amounts.tryReduce(0) { try add($0, $1) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}
