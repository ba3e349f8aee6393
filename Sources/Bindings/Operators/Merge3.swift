extension Publishers {
    /// A publisher created by applying the merge function to three upstream publishers,
    /// as in Combine: it republishes the values of all of them as they come.
    ///
    /// It finishes when every upstream has finished and fails as soon as one fails
    /// (cancelling the others). Demand and threading work as for ``Publishers/Merge``.
    ///
    /// ```swift
    /// let merged = a.merge(with: b, c).sink { print($0) }
    /// ```
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output,
          B.Failure == C.Failure, B.Output == C.Output {
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

        /// Creates a publisher that merges the elements of `a`, `b` and `c`.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Gives `subscriber` its subscription, then subscribes to each upstream in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: 3, description: "Merge")
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0))
            b.subscribe(core.side(1))
            c.subscribe(core.side(2))
        }
    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.Merge3 {
    /// Returns a publisher that also merges the elements of one more publisher: a
    /// ``Publishers/Merge4`` of all four, as in Combine.
    public func merge<P>(
        with other: P
    ) -> Publishers.Merge4<A, B, C, P>
    where P: Publisher,
          C.Failure == P.Failure, C.Output == P.Output {
        Publishers.Merge4(a, b, c, other)
    }

    /// Returns a publisher that also merges the elements of two more publishers: a
    /// ``Publishers/Merge5`` of all five, as in Combine.
    public func merge<Z, Y>(
        with z: Z, _ y: Y
    ) -> Publishers.Merge5<A, B, C, Z, Y>
    where Z: Publisher, Y: Publisher,
          C.Failure == Z.Failure, C.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge5(a, b, c, z, y)
    }

    /// Returns a publisher that also merges the elements of three more publishers: a
    /// ``Publishers/Merge6`` of all six, as in Combine.
    public func merge<Z, Y, X>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge6<A, B, C, Z, Y, X>
    where Z: Publisher, Y: Publisher, X: Publisher,
          C.Failure == Z.Failure, C.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output,
          Y.Failure == X.Failure, Y.Output == X.Output {
        Publishers.Merge6(a, b, c, z, y, x)
    }

    /// Returns a publisher that also merges the elements of four more publishers: a
    /// ``Publishers/Merge7`` of all seven, as in Combine.
    public func merge<Z, Y, X, W>(
        with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge7<A, B, C, Z, Y, X, W>
    where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher,
          C.Failure == Z.Failure, C.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output,
          Y.Failure == X.Failure, Y.Output == X.Output,
          X.Failure == W.Failure, X.Output == W.Output {
        Publishers.Merge7(a, b, c, z, y, x, w)
    }

    /// Returns a publisher that also merges the elements of five more publishers: a
    /// ``Publishers/Merge8`` of all eight, as in Combine.
    public func merge<Z, Y, X, W, V>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
    where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher,
          C.Failure == Z.Failure, C.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output,
          Y.Failure == X.Failure, Y.Output == X.Output,
          X.Failure == W.Failure, X.Output == W.Output,
          W.Failure == V.Failure, W.Output == V.Output {
        Publishers.Merge8(a, b, c, z, y, x, w, v)
    }
}

extension Publisher {
    /// Combines elements from this publisher with those from two other publishers of the
    /// same types, delivering an interleaved sequence of elements.
    ///
    /// ```swift
    /// let merged = a.merge(with: b, c).sink { print($0) }
    /// ```
    public func merge<B, C>(
        with b: B, _ c: C
    ) -> Publishers.Merge3<Self, B, C>
    where B: Publisher, C: Publisher,
          Failure == B.Failure, Output == B.Output,
          B.Failure == C.Failure, B.Output == C.Output {
        Publishers.Merge3(self, b, c)
    }
}
