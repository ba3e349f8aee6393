extension Publishers {
    /// A publisher created by applying the zip function to four upstream publishers, as
    /// in Combine: it groups the oldest unpaired value of each.
    ///
    /// It waits until every upstream has published a value, then publishes the tuple of
    /// their oldest unpaired values; each value is used once. It finishes as soon as one
    /// upstream has finished and none of its values is left to pair, and fails as soon as
    /// one fails (cancelling the others). Demand and threading work as for
    /// ``Publishers/Zip``.
    ///
    /// ```swift
    /// let c = red.zip(green, blue, alpha).sink { r, g, b, a in paint(r, g, b, a) }
    /// ```
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        /// Tuples of one value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The failure type shared by the upstreams.
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A
        /// A second publisher to zip.
        public let b: B
        /// A third publisher to zip.
        public let c: C
        /// A fourth publisher to zip.
        public let d: D

        /// Creates a publisher that zips `a`, `b`, `c` and `d`.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Gives `subscriber` its subscription, then subscribes to `a`, `b`, `c` and `d`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = ZipCore<ZipBuffers4<A.Output, B.Output, C.Output, D.Output>, S>(downstream: subscriber)
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0) { $0.a.append($1) })
            b.subscribe(core.side(1) { $0.b.append($1) })
            c.subscribe(core.side(2) { $0.c.append($1) })
            d.subscribe(core.side(3) { $0.d.append($1) })
        }
    }
}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

/// The unpaired values of the four upstreams of a `Zip4`.
struct ZipBuffers4<A, B, C, D>: ZipBuffers {
    var a = ZipBuffer<A>()
    var b = ZipBuffer<B>()
    var c = ZipBuffer<C>()
    var d = ZipBuffer<D>()

    static var count: Int { 4 }

    init() {}

    func isEmpty(_ index: Int) -> Bool {
        switch index {
        case 0: a.isEmpty
        case 1: b.isEmpty
        case 2: c.isEmpty
        default: d.isEmpty
        }
    }

    mutating func removeFirst() -> (A, B, C, D) {
        (a.removeFirst(), b.removeFirst(), c.removeFirst(), d.removeFirst())
    }
}

extension Publisher {
    /// Combines elements from three other publishers and delivers groups of elements as
    /// tuples: the oldest unpaired value of each, once all four have one.
    ///
    /// ```swift
    /// let c = red.zip(green, blue, alpha).sink { print($0) }
    /// ```
    public func zip<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.Zip4<Self, P, Q, R>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

    /// Combines elements from three other publishers and delivers `transform` of each
    /// group: the oldest unpaired value of each, once all four have one.
    ///
    /// ```swift
    /// let c = red.zip(green, blue, alpha) { Colour(r: $0, g: $1, b: $2, a: $3) }.sink { paint($0) }
    /// ```
    public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3).map { transform($0.0, $0.1, $0.2, $0.3) }
    }
}
