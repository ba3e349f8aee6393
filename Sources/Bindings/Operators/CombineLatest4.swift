extension Publishers {
    /// A publisher that receives and combines the latest elements from four publishers,
    /// as in Combine.
    ///
    /// It publishes nothing until every upstream has published a value; then, each time
    /// one publishes, it publishes the tuple of their latest values. It finishes when all
    /// four have finished and fails as soon as one fails (cancelling the others).
    /// Demand and threading work as for ``Publishers/CombineLatest``.
    ///
    /// ```swift
    /// let c = top.combineLatest(right, bottom, left).sink { t, r, b, l in layout(t, r, b, l) }
    /// ```
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        /// Tuples of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The failure type shared by the upstreams.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C
        /// The fourth upstream publisher.
        public let d: D

        /// Creates a publisher that combines the latest elements of `a`, `b`, `c` and `d`.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Gives `subscriber` its subscription, then subscribes to `a`, `b`, `c` and `d`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore<CombineLatestValues4<A.Output, B.Output, C.Output, D.Output>, S>(
                downstream: subscriber)
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0) { $0.store($1, at: 0) })
            b.subscribe(core.side(1) { $0.store($1, at: 1) })
            c.subscribe(core.side(2) { $0.store($1, at: 2) })
            d.subscribe(core.side(3) { $0.store($1, at: 3) })
        }
    }
}

extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

/// How a `CombineLatest4` makes its tuple from the latest values.
enum CombineLatestValues4<A, B, C, D>: CombineLatestValues {
    static var count: Int { 4 }

    static func combination(of values: [Any]) -> (A, B, C, D) {
        // Cannot fail: the store closures of `receive(subscriber:)` put each upstream's
        // values at its index.
        (values[0] as! A, values[1] as! B, values[2] as! C, values[3] as! D)
    }
}

extension Publisher {
    /// Subscribes to three additional publishers and publishes a tuple of the latest value
    /// of each, once all four have published, every time one publishes.
    ///
    /// ```swift
    /// let c = top.combineLatest(right, bottom, left).sink { print($0) }
    /// ```
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Subscribes to three additional publishers and publishes `transform` of the latest
    /// value of each, once all four have published, every time one publishes.
    ///
    /// ```swift
    /// let insets = top.combineLatest(right, bottom, left) { Insets(top: $0, right: $1, bottom: $2, left: $3) }
    /// ```
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map { transform($0.0, $0.1, $0.2, $0.3) }
    }
}
