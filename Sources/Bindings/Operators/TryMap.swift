extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a
    /// provided error-throwing closure, as in Combine.
    ///
    /// ```swift
    /// let c = texts.tryMap { text -> Int in
    ///     guard let number = Int(text) else { throw ParseError.notANumber(text) }
    ///     return number
    /// }
    /// .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // "1" prints 1; "x" prints failure(notANumber("x")), and the subscription to texts is cancelled
    /// ```
    ///
    /// When the closure throws, the subscription to the upstream publisher is cancelled
    /// and the subscriber fails with the error. The subscriber gets a subscription of
    /// this publisher's own, which passes demand straight upstream.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that transforms elements from the upstream
        /// publisher.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates a publisher that transforms each upstream element with `transform`,
        /// failing with what it throws.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        // `@inlinable` (here and in `Stage`): a value costs one closure call and one
        // forward; inlined, a client's pipeline is specialised for its concrete types.
        /// Attaches `subscriber` to the upstream publisher through the transform.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(StageInner(stage: Stage(transform: transform), downstream: subscriber))
        }
    }
}

extension Publishers.TryMap {
    /// Transforms each value; a thrown error ends the stream.
    @usableFromInline
    struct Stage: OperatorStage {
        @usableFromInline let transform: (Upstream.Output) throws -> Output

        @inlinable
        init(transform: @escaping (Upstream.Output) throws -> Output) {
            self.transform = transform
        }

        @usableFromInline static var name: String { "TryMap" }
        @usableFromInline static var trapsOnZeroDemand: Bool { false }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Output, any Error> {
            do {
                return .publish(try transform(input))
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publishers.TryMap {
    /// Returns a single `TryMap` that applies this transform, then `transform`, as
    /// Combine fuses a `map` after a `tryMap`.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap<Upstream, T>(upstream: upstream) { transform(try first($0)) }
    }

    /// Returns a single `TryMap` that applies this transform, then `transform`, as
    /// Combine fuses consecutive `tryMap`s.
    ///
    /// ```swift
    /// let p: Publishers.TryMap<PassthroughSubject<String, Never>, Int> =
    ///     texts.tryMap { try parse($0) }.tryMap { try validate($0) }
    /// ```
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap<Upstream, T>(upstream: upstream) { try transform(try first($0)) }
    }
}

extension Publishers.Map {
    /// Returns a single `TryMap` that applies this transform, then `transform`, as
    /// Combine fuses a `tryMap` after a `map`.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap<Upstream, T>(upstream: upstream) { try transform(first($0)) }
    }
}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided
    /// error-throwing closure; a thrown error cancels the upstream and fails the
    /// subscriber with it.
    ///
    /// ```swift
    /// let c = texts.tryMap { try JSONDecoder().decode(Order.self, from: Data($0.utf8)) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}
