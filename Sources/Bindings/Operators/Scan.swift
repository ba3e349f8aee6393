extension Publishers {
    /// A publisher that transforms elements by applying a closure that receives its
    /// previous return value and the next element, as in Combine.
    ///
    /// ```swift
    /// let c = numbers.scan(0, +).sink { print($0) }   // 1, 2, 3 print 1, 3, 6
    /// ```
    ///
    /// Each subscription starts from `initialResult` and publishes every running result.
    /// The subscriber receives the upstream subscription.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The value that the first call to `nextPartialResult` receives.
        public let initialResult: Output

        /// A closure that combines the previous result and the next element.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that publishes each running result of `nextPartialResult`.
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        // `@inlinable` (here and in `Inner`): a value costs one closure call and one
        // forward; inlined, a client's pipeline is specialised for its concrete types.
        /// Attaches `subscriber` to the upstream publisher through the accumulator.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                Inner(downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult))
        }
    }
}

extension Publishers.Scan {
    /// Accumulates the running result; passes the upstream subscription through.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let nextPartialResult: (Output, Upstream.Output) -> Output
        /// Only touched by `receive(_:)`, which the upstream calls one value at a time
        /// (the subscriber contract); `@exclusivity(unchecked)` saves the dynamic
        /// exclusivity check that per-value path would pay.
        @exclusivity(unchecked) @usableFromInline var result: Output

        @inlinable
        init(
            downstream: Downstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.downstream = downstream
            self.result = initialResult
            self.nextPartialResult = nextPartialResult
        }

        @usableFromInline var description: String { "Scan" }

        /// The subscriber and the running result, as Combine shows them. `result` belongs
        /// to the delivering thread: reflect from there (a breakpoint or `dump` in a callback).
        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["downstream": downstream, "result": result])
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let next = nextPartialResult(result, input)
            result = next
            return downstream.receive(next)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }
    }
}

extension Publishers.Scan {
    /// Not for use: the upstream's fused sink, through the running result (see
    /// `Publisher._fusedSink`).
    @inlinable
    public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
        let nextPartialResult = self.nextPartialResult
        let result = FusedState(initialResult)
        return upstream._fusedSink { value in
            result.value = nextPartialResult(result.value, value)
            receiveValue(result.value)
        }
    }
}

extension Publisher {
    /// Transforms elements by providing the current element to a closure along with the
    /// last value returned by the closure, publishing each result.
    ///
    /// ```swift
    /// let c = taps.scan(0) { count, _ in count + 1 }.sink { print($0) }   // 1, 2, 3, ...
    /// ```
    @inlinable
    public func scan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}
