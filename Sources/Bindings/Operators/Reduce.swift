extension Publishers {
    /// A publisher that applies a closure to all received elements and produces an
    /// accumulated value when the upstream publisher finishes, as in Combine.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.reduce(0, +).sink { print($0) }   // prints 6
    /// ```
    ///
    /// It asks upstream for everything at once; the one value it publishes waits for the
    /// subscriber's request, then `.finished` follows. A failure goes down at once.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The value that the first call to `nextPartialResult` receives.
        public let initial: Output

        /// A closure that combines the accumulated value and the next element.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that publishes the result of folding the upstream's
        /// elements into `initial` with `nextPartialResult`.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        // `@inlinable` (here and in `Stage`): a value costs one closure call; inlined, a
        // client's pipeline is specialised for its concrete types.
        /// Attaches `subscriber` to the upstream publisher through the accumulator.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                ReduceInner(stage: Stage(result: initial, nextPartialResult: nextPartialResult), downstream: subscriber))
        }
    }
}

extension Publishers.Reduce {
    /// Folds each value into the running result.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var result: Output
        @usableFromInline let nextPartialResult: (Output, Upstream.Output) -> Output

        @inlinable
        init(result: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.result = result
            self.nextPartialResult = nextPartialResult
        }

        @usableFromInline static var name: String { "Reduce" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            result = nextPartialResult(result, input)
            return .more
        }

        @inlinable
        mutating func takeResult() -> Output? { result }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Applies a closure that collects each element of a stream and publishes a final
    /// result upon completion.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.reduce(0, +).sink { print($0) }   // prints 6
    /// ```
    @inlinable
    public func reduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}
