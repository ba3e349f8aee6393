extension Publishers {
    /// A publisher created by applying the merge function to five upstream publishers,
    /// as in Combine: it republishes the values of all of them as they come.
    ///
    /// It finishes when every upstream has finished and fails as soon as one fails
    /// (cancelling the others). Demand and threading work as for ``Publishers/Merge``.
    ///
    /// ```swift
    /// let merged = a.merge(with: b, c, d, e).sink { print($0) }
    /// ```
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output,
          B.Failure == C.Failure, B.Output == C.Output,
          C.Failure == D.Failure, C.Output == D.Output,
          D.Failure == E.Failure, D.Output == E.Output {
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

        /// Creates a publisher that merges the elements of `a`, `b`, `c`, `d` and `e`.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Gives `subscriber` its subscription, then subscribes to each upstream in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: 5, description: "Merge")
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0))
            b.subscribe(core.side(1))
            c.subscribe(core.side(2))
            d.subscribe(core.side(3))
            e.subscribe(core.side(4))
        }
    }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}

extension Publishers.Merge5 {
    /// Returns a publisher that also merges the elements of one more publisher: a
    /// ``Publishers/Merge6`` of all six, as in Combine.
    public func merge<P>(
        with other: P
    ) -> Publishers.Merge6<A, B, C, D, E, P>
    where P: Publisher,
          E.Failure == P.Failure, E.Output == P.Output {
        Publishers.Merge6(a, b, c, d, e, other)
    }

    /// Returns a publisher that also merges the elements of two more publishers: a
    /// ``Publishers/Merge7`` of all seven, as in Combine.
    public func merge<Z, Y>(
        with z: Z, _ y: Y
    ) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
    where Z: Publisher, Y: Publisher,
          E.Failure == Z.Failure, E.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge7(a, b, c, d, e, z, y)
    }

    /// Returns a publisher that also merges the elements of three more publishers: a
    /// ``Publishers/Merge8`` of all eight, as in Combine.
    public func merge<Z, Y, X>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
    where Z: Publisher, Y: Publisher, X: Publisher,
          E.Failure == Z.Failure, E.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output,
          Y.Failure == X.Failure, Y.Output == X.Output {
        Publishers.Merge8(a, b, c, d, e, z, y, x)
    }
}

extension Publisher {
    /// Combines elements from this publisher with those from four other publishers of the
    /// same types, delivering an interleaved sequence of elements.
    ///
    /// ```swift
    /// let merged = a.merge(with: b, c, d, e).sink { print($0) }
    /// ```
    public func merge<B, C, D, E>(
        with b: B, _ c: C, _ d: D, _ e: E
    ) -> Publishers.Merge5<Self, B, C, D, E>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher,
          Failure == B.Failure, Output == B.Output,
          B.Failure == C.Failure, B.Output == C.Output,
          C.Failure == D.Failure, C.Output == D.Output,
          D.Failure == E.Failure, D.Output == E.Output {
        Publishers.Merge5(self, b, c, d, e)
    }
}
