extension Publishers {
    /// A publisher that emits an event when either upstream publisher emits an event, as
    /// in Combine.
    ///
    /// It finishes when both upstreams have finished and fails as soon as either fails
    /// (cancelling the other).
    ///
    /// ```swift
    /// let taps = PassthroughSubject<String, Never>()
    /// let keys = PassthroughSubject<String, Never>()
    /// let c = taps.merge(with: keys).sink { print($0) }
    /// taps.send("tap")     // prints "tap"
    /// keys.send("return")  // prints "return"
    /// ```
    ///
    /// Demand is Combine's: each upstream has at most one value requested while the
    /// subscriber's demand is finite (one value per upstream may wait for demand), all
    /// of them once it is unlimited. Upstreams may publish on different threads; the
    /// subscriber is never called concurrently.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output {
        /// The upstreams' output type.
        public typealias Output = A.Output
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B

        /// Creates a publisher that merges the elements of `a` and `b`.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Gives `subscriber` its subscription, then subscribes to `a` and `b`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: 2, description: "Merge")
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0))
            b.subscribe(core.side(1))
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}

extension Publisher {
    /// Combines elements from this publisher with those from another publisher of the
    /// same types, delivering an interleaved sequence of elements.
    ///
    /// ```swift
    /// let c = taps.merge(with: keys).sink { print($0) }
    /// ```
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Merge(self, other)
    }
}
