extension Publishers {
    /// A publisher created by applying the merge function to seven upstream publishers,
    /// as in Combine: it republishes the values of all of them as they come.
    ///
    /// It finishes when every upstream has finished and fails as soon as one fails
    /// (cancelling the others). Demand and threading work as for ``Publishers/Merge``.
    ///
    /// ```swift
    /// let merged = a.merge(with: b, c, d, e, f, g).sink { print($0) }
    /// ```
    public struct Merge7<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
    >: Publisher
    where A.Failure == B.Failure, A.Output == B.Output,
          B.Failure == C.Failure, B.Output == C.Output,
          C.Failure == D.Failure, C.Output == D.Output,
          D.Failure == E.Failure, D.Output == E.Output,
          E.Failure == F.Failure, E.Output == F.Output,
          F.Failure == G.Failure, F.Output == G.Output {
        /// The upstreams' output type.
        public typealias Output = A.Output
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A
        /// A second publisher to merge.
        public let b: B
        /// A third publisher to merge.
        public let c: C
        /// A fourth publisher to merge.
        public let d: D
        /// A fifth publisher to merge.
        public let e: E
        /// A sixth publisher to merge.
        public let f: F
        /// A seventh publisher to merge.
        public let g: G

        /// Creates a publisher that merges the elements of `a`, `b`, `c`, `d`, `e`, `f` and `g`.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        /// Gives `subscriber` its subscription, then subscribes to each upstream in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: 7, description: "Merge")
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0))
            b.subscribe(core.side(1))
            c.subscribe(core.side(2))
            d.subscribe(core.side(3))
            e.subscribe(core.side(4))
            f.subscribe(core.side(5))
            g.subscribe(core.side(6))
        }
    }
}

extension Publishers.Merge7: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}

extension Publishers.Merge7 {
    /// Returns a publisher that also merges the elements of one more publisher: a
    /// ``Publishers/Merge8`` of all eight, as in Combine.
    public func merge<P>(
        with other: P
    ) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
    where P: Publisher,
          G.Failure == P.Failure, G.Output == P.Output {
        Publishers.Merge8(a, b, c, d, e, f, g, other)
    }
}

extension Publisher {
    /// Combines elements from this publisher with those from six other publishers of the
    /// same types, delivering an interleaved sequence of elements.
    ///
    /// ```swift
    /// let merged = a.merge(with: b, c, d, e, f, g).sink { print($0) }
    /// ```
    public func merge<B, C, D, E, F, G>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher,
          Failure == B.Failure, Output == B.Output,
          B.Failure == C.Failure, B.Output == C.Output,
          C.Failure == D.Failure, C.Output == D.Output,
          D.Failure == E.Failure, D.Output == E.Output,
          E.Failure == F.Failure, E.Output == F.Output,
          F.Failure == G.Failure, F.Output == G.Output {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }
}
