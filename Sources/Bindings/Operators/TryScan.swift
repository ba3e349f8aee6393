extension Publishers {
    /// A publisher that transforms elements by applying an error-throwing closure that
    /// receives its previous return value and the next element, as in Combine.
    ///
    /// ```swift
    /// let c = deposits.tryScan(0) { balance, amount in
    ///     guard amount > 0 else { throw LedgerError.notADeposit(amount) }
    ///     return balance + amount
    /// }
    /// .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// Each subscription starts from `initialResult` and publishes every running result.
    /// When the closure throws, the upstream subscription is cancelled and the subscriber
    /// fails with the error. The subscriber gets a subscription of this publisher's own,
    /// which passes demand straight upstream.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The value that the first call to `nextPartialResult` receives.
        public let initialResult: Output

        /// An error-throwing closure that combines the previous result and the next
        /// element.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that publishes each running result of `nextPartialResult`,
        /// failing with what it throws.
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber` to the upstream publisher through the accumulator.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(
                StageInner(
                    stage: Stage(result: initialResult, nextPartialResult: nextPartialResult), downstream: subscriber))
        }
    }
}

extension Publishers.TryScan {
    /// Publishes each running result; a thrown error ends the stream.
    @usableFromInline
    struct Stage: OperatorStage {
        @usableFromInline var result: Output
        @usableFromInline let nextPartialResult: (Output, Upstream.Output) throws -> Output

        @inlinable
        init(result: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
            self.result = result
            self.nextPartialResult = nextPartialResult
        }

        @usableFromInline static var name: String { "TryScan" }
        @usableFromInline static var trapsOnZeroDemand: Bool { false }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Output, any Error> {
            do {
                result = try nextPartialResult(result, input)
                return .publish(result)
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher {
    /// Transforms elements by providing the current element to an error-throwing closure
    /// along with the last value returned by the closure, publishing each result; a
    /// thrown error cancels the upstream and fails the subscriber with it.
    ///
    /// ```swift
    /// let c = deposits.tryScan(0) { try add($0, $1) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}
