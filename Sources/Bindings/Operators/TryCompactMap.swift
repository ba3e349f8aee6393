extension Publishers {
    /// A publisher that republishes the non-`nil` results of calling an error-throwing
    /// closure with each upstream element, as in Combine.
    ///
    /// ```swift
    /// let c = lines.tryCompactMap { line in line.isEmpty ? nil : try parse(line) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// Each `nil` result is replaced by asking upstream for one more element (`.max(1)`).
    /// When the closure throws, the upstream subscription is cancelled and the subscriber
    /// fails with the error. The subscriber gets a subscription of this publisher's own,
    /// which passes demand upstream (a request of zero stops the program, as in Combine).
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that receives an element and returns a value to
        /// publish, or `nil` to drop the element.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates a publisher that republishes the non-`nil` results of `transform`,
        /// failing with what it throws.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` to the upstream publisher through the transform.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(StageInner(stage: Stage(transform: transform), downstream: subscriber))
        }
    }
}

extension Publishers.TryCompactMap {
    /// Transforms each value and drops `nil`s; a thrown error ends the stream.
    @usableFromInline
    struct Stage: OperatorStage {
        @usableFromInline let transform: (Upstream.Output) throws -> Output?

        @inlinable
        init(transform: @escaping (Upstream.Output) throws -> Output?) {
            self.transform = transform
        }

        @usableFromInline static var name: String { "TryCompactMap" }
        @usableFromInline static var trapsOnZeroDemand: Bool { true }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Output, any Error> {
            do {
                guard let output = try transform(input) else { return .drop }
                return .publish(output)
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publishers.TryCompactMap {
    /// Returns a single `TryCompactMap` that applies this transform, then `transform` to
    /// its non-`nil` results, as Combine fuses a `compactMap` after a `tryCompactMap`
    /// (and, as there, `transform` may throw).
    ///
    /// ```swift
    /// let p: Publishers.TryCompactMap<PassthroughSubject<String, Never>, Int> =
    ///     lines.tryCompactMap { try parse($0) }.compactMap { $0 > 0 ? $0 : nil }
    /// ```
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap<Upstream, T>(upstream: upstream) { input in
            guard let output = try first(input) else { return nil }
            return try transform(output)
        }
    }
}

extension Publisher {
    /// Calls an error-throwing closure with each received element and publishes any
    /// returned non-`nil` value; a thrown error cancels the upstream and fails the
    /// subscriber with it.
    ///
    /// ```swift
    /// let c = lines.tryCompactMap { try parse($0) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}
