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

extension Publishers.Merge {
    /// Returns a publisher that also merges the elements of one more publisher: a
    /// ``Publishers/Merge3`` of all three, as in Combine.
    ///
    /// ```swift
    /// let all = a.merge(with: b).merge(with: c)   // one Merge3, not nested merges
    /// ```
    public func merge<P>(
        with other: P
    ) -> Publishers.Merge3<A, B, P>
    where P: Publisher,
          B.Failure == P.Failure, B.Output == P.Output {
        Publishers.Merge3(a, b, other)
    }

    /// Returns a publisher that also merges the elements of two more publishers: a
    /// ``Publishers/Merge4`` of all four, as in Combine.
    ///
    /// ```swift
    /// let all = a.merge(with: b).merge(with: c, d)   // one Merge4, not nested merges
    /// ```
    public func merge<Z, Y>(
        with z: Z, _ y: Y
    ) -> Publishers.Merge4<A, B, Z, Y>
    where Z: Publisher, Y: Publisher,
          B.Failure == Z.Failure, B.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge4(a, b, z, y)
    }

    /// Returns a publisher that also merges the elements of three more publishers: a
    /// ``Publishers/Merge5`` of all five, as in Combine.
    ///
    /// ```swift
    /// let all = a.merge(with: b).merge(with: c, d, e)   // one Merge5, not nested merges
    /// ```
    public func merge<Z, Y, X>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge5<A, B, Z, Y, X>
    where Z: Publisher, Y: Publisher, X: Publisher,
          B.Failure == Z.Failure, B.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output,
          Y.Failure == X.Failure, Y.Output == X.Output {
        Publishers.Merge5(a, b, z, y, x)
    }

    /// Returns a publisher that also merges the elements of four more publishers: a
    /// ``Publishers/Merge6`` of all six, as in Combine.
    ///
    /// ```swift
    /// let all = a.merge(with: b).merge(with: c, d, e, f)   // one Merge6, not nested merges
    /// ```
    public func merge<Z, Y, X, W>(
        with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge6<A, B, Z, Y, X, W>
    where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher,
          B.Failure == Z.Failure, B.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output,
          Y.Failure == X.Failure, Y.Output == X.Output,
          X.Failure == W.Failure, X.Output == W.Output {
        Publishers.Merge6(a, b, z, y, x, w)
    }

    /// Returns a publisher that also merges the elements of five more publishers: a
    /// ``Publishers/Merge7`` of all seven, as in Combine.
    ///
    /// ```swift
    /// let all = a.merge(with: b).merge(with: c, d, e, f, g)   // one Merge7, not nested merges
    /// ```
    public func merge<Z, Y, X, W, V>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
    where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher,
          B.Failure == Z.Failure, B.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output,
          Y.Failure == X.Failure, Y.Output == X.Output,
          X.Failure == W.Failure, X.Output == W.Output,
          W.Failure == V.Failure, W.Output == V.Output {
        Publishers.Merge7(a, b, z, y, x, w, v)
    }

    /// Returns a publisher that also merges the elements of six more publishers: a
    /// ``Publishers/Merge8`` of all eight, as in Combine.
    ///
    /// ```swift
    /// let all = a.merge(with: b).merge(with: c, d, e, f, g, h)   // one Merge8, not nested merges
    /// ```
    public func merge<Z, Y, X, W, V, U>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U
    ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
    where Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher,
          B.Failure == Z.Failure, B.Output == Z.Output,
          Z.Failure == Y.Failure, Z.Output == Y.Output,
          Y.Failure == X.Failure, Y.Output == X.Output,
          X.Failure == W.Failure, X.Output == W.Output,
          W.Failure == V.Failure, W.Output == V.Output,
          V.Failure == U.Failure, V.Output == U.Output {
        Publishers.Merge8(a, b, z, y, x, w, v, u)
    }
}

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
