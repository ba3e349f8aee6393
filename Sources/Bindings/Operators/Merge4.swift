extension Publishers {
    /// A publisher created by applying the merge function to four upstream publishers,
    /// as in Combine: it republishes the values of all of them as they come.
    ///
    /// It finishes when every upstream has finished and fails as soon as one fails
    /// (cancelling the others). Demand and threading work as for ``Publishers/Merge``.
    ///
    /// ```swift
    /// let merged = a.merge(with: b, c, d).sink { print($0) }
    /// ```
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output,
          B.Failure == C.Failure, B.Output == C.Output,
          C.Failure == D.Failure, C.Output == D.Output {
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

        /// Creates a publisher that merges the elements of `a`, `b`, `c` and `d`.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Gives `subscriber` its subscription, then subscribes to each upstream in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: 4, description: "Merge")
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0))
            b.subscribe(core.side(1))
            c.subscribe(core.side(2))
            d.subscribe(core.side(3))
        }
    }
}

extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publishers.Merge4 {
    /// Returns a publisher that also merges the elements of one more publisher: a
    /// ``Publishers/Merge5`` of all five, as in Combine.
    public func merge<P>(
        with other: P
    ) -> Publishers.Merge5<A, B, C, D, P>
    where P: Publisher,
          D.Failure == P.Failure, D.Output == P.Output {
        Publishers.Merge5(a, b, c, d, other)
    }

    /// Returns a publisher that also merges the elements of two more publishers: a
    /// ``Publishers/Merge6`` of all six, as in Combine.
    public func merge<Z, Y>(
        with z: Z, _ y: Y
    ) -> Publishers.Merge6<A, B, C, D, Z, Y>
    where Z: Publisher, Y: Publisher,
          D.Failure == Z.Failure, D.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge6(a, b, c, d, z, y)
    }

    /// Returns a publisher that also merges the elements of three more publishers: a
    /// ``Publishers/Merge7`` of all seven, as in Combine.
    public func merge<Z, Y, X>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge7<A, B, C, D, Z, Y, X>
    where Z: Publisher, Y: Publisher, X: Publisher,
          D.Failure == Z.Failure, D.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output,
          Y.Failure == X.Failure, Y.Output == X.Output {
        Publishers.Merge7(a, b, c, d, z, y, x)
    }

    /// Returns a publisher that also merges the elements of four more publishers: a
    /// ``Publishers/Merge8`` of all eight, as in Combine.
    public func merge<Z, Y, X, W>(
        with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge8<A, B, C, D, Z, Y, X, W>
    where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher,
          D.Failure == Z.Failure, D.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output,
          Y.Failure == X.Failure, Y.Output == X.Output,
          X.Failure == W.Failure, X.Output == W.Output {
        Publishers.Merge8(a, b, c, d, z, y, x, w)
    }
}

extension Publisher {
    /// Combines elements from this publisher with those from three other publishers of the
    /// same types, delivering an interleaved sequence of elements.
    ///
    /// ```swift
    /// let merged = a.merge(with: b, c, d).sink { print($0) }
    /// ```
    public func merge<B, C, D>(
        with b: B, _ c: C, _ d: D
    ) -> Publishers.Merge4<Self, B, C, D>
    where B: Publisher, C: Publisher, D: Publisher,
          Failure == B.Failure, Output == B.Output,
          B.Failure == C.Failure, B.Output == C.Output,
          C.Failure == D.Failure, C.Output == D.Output {
        Publishers.Merge4(self, b, c, d)
    }
}
