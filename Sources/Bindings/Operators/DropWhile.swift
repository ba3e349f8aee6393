extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given closure
    /// returns `false`, then republishes all later elements, as in Combine.
    ///
    /// ```swift
    /// let c = [1, 2, 5, 1].publisher.drop { $0 < 3 }.sink { print($0) }   // prints 5, 1
    /// ```
    ///
    /// The predicate runs until it first returns `false`, and never after. Each dropped
    /// element is replaced by asking upstream for one more (`.max(1)`). The subscriber
    /// gets a subscription of this publisher's own, which passes demand straight upstream.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that indicates whether to drop the element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that drops the elements of `upstream` while `predicate`
        /// returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
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

extension Publishers.DropWhile {
    /// Drops values until the predicate first says no.
    @usableFromInline
    struct Stage: OperatorStage {
        /// Set to `nil` once it returns `false`: from then on every value passes.
        @usableFromInline var predicate: ((Upstream.Output) -> Bool)?

        @inlinable
        init(predicate: @escaping (Upstream.Output) -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "DropWhile" }
        @usableFromInline static var trapsOnZeroDemand: Bool { false }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Upstream.Output, Upstream.Failure> {
            if let predicate {
                if predicate(input) { return .drop }
                self.predicate = nil
            }
            return .publish(input)
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Omits elements from the upstream publisher until a given closure returns `false`,
    /// before republishing all remaining elements.
    ///
    /// ```swift
    /// let c = [1, 2, 5, 1].publisher.drop { $0 < 3 }.sink { print($0) }   // prints 5, 1
    /// ```
    @inlinable
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }
}
