extension Publishers {
    /// A publisher created by applying the merge function to six upstream publishers,
    /// as in Combine: it republishes the values of all of them as they come.
    ///
    /// It finishes when every upstream has finished and fails as soon as one fails
    /// (cancelling the others). Demand and threading work as for ``Publishers/Merge``.
    ///
    /// ```swift
    /// let merged = a.merge(with: b, c, d, e, f).sink { print($0) }
    /// ```
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output,
          B.Failure == C.Failure, B.Output == C.Output,
          C.Failure == D.Failure, C.Output == D.Output,
          D.Failure == E.Failure, D.Output == E.Output,
          E.Failure == F.Failure, E.Output == F.Output {
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

        /// Creates a publisher that merges the elements of `a`, `b`, `c`, `d`, `e` and `f`.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        /// Gives `subscriber` its subscription, then subscribes to each upstream in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: 6, description: "Merge")
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0))
            b.subscribe(core.side(1))
            c.subscribe(core.side(2))
            d.subscribe(core.side(3))
            e.subscribe(core.side(4))
            f.subscribe(core.side(5))
        }
    }
}

extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}

extension Publishers.Merge6 {
    /// Returns a publisher that also merges the elements of one more publisher: a
    /// ``Publishers/Merge7`` of all seven, as in Combine.
    public func merge<P>(
        with other: P
    ) -> Publishers.Merge7<A, B, C, D, E, F, P>
    where P: Publisher,
          F.Failure == P.Failure, F.Output == P.Output {
        Publishers.Merge7(a, b, c, d, e, f, other)
    }

    /// Returns a publisher that also merges the elements of two more publishers: a
    /// ``Publishers/Merge8`` of all eight, as in Combine.
    public func merge<Z, Y>(
        with z: Z, _ y: Y
    ) -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
    where Z: Publisher, Y: Publisher,
          F.Failure == Z.Failure, F.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge8(a, b, c, d, e, f, z, y)
    }
}

extension Publisher {
    /// Combines elements from this publisher with those from five other publishers of the
    /// same types, delivering an interleaved sequence of elements.
    ///
    /// ```swift
    /// let merged = a.merge(with: b, c, d, e, f).sink { print($0) }
    /// ```
    public func merge<B, C, D, E, F>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> Publishers.Merge6<Self, B, C, D, E, F>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
          Failure == B.Failure, Output == B.Output,
          B.Failure == C.Failure, B.Output == C.Output,
          C.Failure == D.Failure, C.Output == D.Output,
          D.Failure == E.Failure, D.Output == E.Output,
          E.Failure == F.Failure, E.Output == F.Output {
        Publishers.Merge6(self, b, c, d, e, f)
    }
}
