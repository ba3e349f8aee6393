extension Publishers {
    /// A publisher that receives and combines the latest elements from three publishers,
    /// as in Combine.
    ///
    /// It publishes nothing until every upstream has published a value; then, each time
    /// one publishes, it publishes the tuple of their latest values. It finishes when all
    /// three have finished and fails as soon as one fails (cancelling the others).
    /// Demand and threading work as for ``Publishers/CombineLatest``.
    ///
    /// ```swift
    /// let c = red.combineLatest(green, blue).sink { r, g, b in print(r, g, b) }
    /// ```
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// Tuples of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The failure type shared by the upstreams.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C

        /// Creates a publisher that combines the latest elements of `a`, `b` and `c`.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Gives `subscriber` its subscription, then subscribes to `a`, `b` and `c`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore<CombineLatestValues3<A.Output, B.Output, C.Output>, S>(
                downstream: subscriber)
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0) { $0.store($1, at: 0) })
            b.subscribe(core.side(1) { $0.store($1, at: 1) })
            c.subscribe(core.side(2) { $0.store($1, at: 2) })
        }
    }
}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

/// How a `CombineLatest3` makes its triple from the latest values.
enum CombineLatestValues3<A, B, C>: CombineLatestValues {
    static var count: Int { 3 }

    static func combination(of values: [Any]) -> (A, B, C) {
        // Cannot fail: the store closures of `receive(subscriber:)` put each upstream's
        // values at its index.
        (values[0] as! A, values[1] as! B, values[2] as! C)
    }
}

extension Publisher {
    /// Subscribes to two additional publishers and publishes a tuple of the latest value of
    /// each, once all three have published, every time one publishes.
    ///
    /// ```swift
    /// let c = red.combineLatest(green, blue).sink { print($0) }
    /// ```
    public func combineLatest<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.CombineLatest3<Self, P, Q> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Subscribes to two additional publishers and publishes `transform` of the latest
    /// value of each, once all three have published, every time one publishes.
    ///
    /// ```swift
    /// let colour = red.combineLatest(green, blue) { Colour(r: $0, g: $1, b: $2) }
    /// ```
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2).map { transform($0.0, $0.1, $0.2) }
    }
}
