extension Publishers {
    /// A publisher that republishes elements while a predicate closure indicates
    /// publishing should continue, then finishes, as in Combine.
    ///
    /// ```swift
    /// let c = [1, 2, 5, 1].publisher.prefix { $0 < 3 }.sink { print($0) }   // prints 1, 2
    /// ```
    ///
    /// The first element for which the predicate returns `false` is not published: it
    /// cancels the upstream subscription and finishes the stream. The subscriber gets a
    /// subscription of this publisher's own, which passes demand upstream (a request of
    /// zero stops the program, as in Combine).
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes the elements of `upstream` while
        /// `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` to the upstream publisher through the predicate.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(StageInner(stage: Stage(predicate: predicate), downstream: subscriber))
        }
    }
}

extension Publishers.PrefixWhile {
    /// Passes values until the predicate says no, then finishes.
    @usableFromInline
    struct Stage: OperatorStage {
        @usableFromInline let predicate: (Upstream.Output) -> Bool

        @inlinable
        init(predicate: @escaping (Upstream.Output) -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "PrefixWhile" }
        @usableFromInline static var trapsOnZeroDemand: Bool { true }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Upstream.Output, Upstream.Failure> {
            predicate(input) ? .publish(input) : .finish
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Republishes elements while a predicate closure indicates publishing should
    /// continue, then finishes and cancels the upstream subscription.
    ///
    /// ```swift
    /// let c = [1, 2, 5, 1].publisher.prefix { $0 < 3 }.sink { print($0) }   // prints 1, 2
    /// ```
    @inlinable
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }
}
