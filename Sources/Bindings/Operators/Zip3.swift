extension Publishers {
    /// A publisher created by applying the zip function to three upstream publishers, as
    /// in Combine: it groups the oldest unpaired value of each.
    ///
    /// It waits until every upstream has published a value, then publishes the tuple of
    /// their oldest unpaired values; each value is used once. It finishes as soon as one
    /// upstream has finished and none of its values is left to pair, and fails as soon as
    /// one fails (cancelling the others). Demand and threading work as for
    /// ``Publishers/Zip``.
    ///
    /// ```swift
    /// let c = xs.zip(ys, zs).sink { x, y, z in plot(x, y, z) }
    /// ```
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// Tuples of one value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The failure type shared by the upstreams.
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A
        /// A second publisher to zip.
        public let b: B
        /// A third publisher to zip.
        public let c: C

        /// Creates a publisher that zips `a`, `b` and `c`.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Gives `subscriber` its subscription, then subscribes to `a`, `b` and `c`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = ZipCore<ZipBuffers3<A.Output, B.Output, C.Output>, S>(downstream: subscriber)
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0) { $0.a.append($1) })
            b.subscribe(core.side(1) { $0.b.append($1) })
            c.subscribe(core.side(2) { $0.c.append($1) })
        }
    }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

/// The unpaired values of the three upstreams of a `Zip3`.
struct ZipBuffers3<A, B, C>: ZipBuffers {
    var a = ZipBuffer<A>()
    var b = ZipBuffer<B>()
    var c = ZipBuffer<C>()

    static var count: Int { 3 }

    init() {}

    func isEmpty(_ index: Int) -> Bool {
        switch index {
        case 0: a.isEmpty
        case 1: b.isEmpty
        default: c.isEmpty
        }
    }

    mutating func removeFirst() -> (A, B, C) {
        (a.removeFirst(), b.removeFirst(), c.removeFirst())
    }
}

extension Publisher {
    /// Combines elements from two other publishers and delivers groups of elements as
    /// tuples: the oldest unpaired value of each, once all three have one.
    ///
    /// ```swift
    /// let c = xs.zip(ys, zs).sink { print($0) }
    /// ```
    public func zip<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.Zip3<Self, P, Q> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Combines elements from two other publishers and delivers `transform` of each group:
    /// the oldest unpaired value of each, once all three have one.
    ///
    /// ```swift
    /// let c = xs.zip(ys, zs) { Point(x: $0, y: $1, z: $2) }.sink { plot($0) }
    /// ```
    public func zip<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2).map { transform($0.0, $0.1, $0.2) }
    }
}
