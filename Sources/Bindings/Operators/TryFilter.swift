extension Publishers {
    /// A publisher that republishes the elements that match an error-throwing predicate,
    /// as in Combine.
    ///
    /// ```swift
    /// let c = paths.tryFilter { try isDirectory($0) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// Each dropped element is replaced by asking upstream for one more (`.max(1)`). When
    /// the predicate throws, the upstream subscription is cancelled and the subscriber
    /// fails with the error. The subscriber gets a subscription of this publisher's own,
    /// which passes demand upstream (a request of zero stops the program, as in Combine).
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// predicate throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that returns whether to republish an element.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes the elements for which `isIncluded`
        /// returns `true`, failing with what it throws.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches `subscriber` to the upstream publisher through the predicate.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(StageInner(stage: Stage(isIncluded: isIncluded), downstream: subscriber))
        }
    }
}

extension Publishers.TryFilter {
    /// Tests each value; a thrown error ends the stream.
    @usableFromInline
    struct Stage: OperatorStage {
        @usableFromInline let isIncluded: (Upstream.Output) throws -> Bool

        @inlinable
        init(isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.isIncluded = isIncluded
        }

        @usableFromInline static var name: String { "TryFilter" }
        @usableFromInline static var trapsOnZeroDemand: Bool { true }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Upstream.Output, any Error> {
            do {
                return try isIncluded(input) ? .publish(input) : .drop
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publishers.TryFilter {
    /// Returns a single `TryFilter` that republishes the elements that pass both this
    /// predicate and `isIncluded`, as Combine fuses a `filter` after a `tryFilter`.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Returns a single `TryFilter` that republishes the elements that pass both this
    /// predicate and `isIncluded`, as Combine fuses consecutive `tryFilter`s.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.Filter {
    /// Returns a single `TryFilter` that republishes the elements that pass both this
    /// predicate and `isIncluded`, as Combine fuses a `tryFilter` after a `filter`.
    ///
    /// ```swift
    /// let p: Publishers.TryFilter<PassthroughSubject<String, Never>> =
    ///     paths.filter { !$0.isEmpty }.tryFilter { try isDirectory($0) }
    /// ```
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publisher {
    /// Republishes all elements that match a provided error-throwing closure; a thrown
    /// error cancels the upstream and fails the subscriber with it.
    ///
    /// ```swift
    /// let c = paths.tryFilter { try isDirectory($0) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}
