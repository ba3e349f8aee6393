extension Publishers {
    /// A publisher that receives and combines the latest elements from two publishers, as
    /// in Combine.
    ///
    /// It publishes nothing until both upstreams have published a value; then, each time
    /// either publishes, it publishes the tuple of their latest values. It finishes when
    /// both have finished and fails as soon as either fails (cancelling the other).
    ///
    /// ```swift
    /// let first = PassthroughSubject<String, Never>()
    /// let last = PassthroughSubject<String, Never>()
    /// let c = first.combineLatest(last).sink { print("\($0) \($1)") }
    /// first.send("Ada")          // nothing yet
    /// last.send("Lovelace")      // prints "Ada Lovelace"
    /// first.send("Augusta")      // prints "Augusta Lovelace"
    /// ```
    ///
    /// Demand: the upstreams are asked for unlimited values at the first request. While
    /// the subscriber has no demand, the latest values keep updating and the newest
    /// combination is delivered when demand arrives (at most one combination is held;
    /// Combine forwards demand upstream and drops instead). Upstreams may publish on
    /// different threads; the subscriber is never called concurrently.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// Tuples of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The failure type shared by the upstreams.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B

        /// Creates a publisher that combines the latest elements of `a` and `b`.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Gives `subscriber` its subscription, then subscribes to `a` and `b`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore<CombineLatestValues2<A.Output, B.Output>, S>(downstream: subscriber)
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0) { $0.store($1, at: 0) })
            b.subscribe(core.side(1) { $0.store($1, at: 1) })
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}

/// How a `CombineLatest` makes its pair from the latest values.
enum CombineLatestValues2<A, B>: CombineLatestValues {
    static var count: Int { 2 }

    static func combination(of values: [Any]) -> (A, B) {
        // Cannot fail: the store closures of `receive(subscriber:)` put each upstream's
        // values at its index.
        (values[0] as! A, values[1] as! B)
    }
}

extension Publisher {
    /// Subscribes to an additional publisher and publishes a tuple of the latest value of
    /// each, once both have published, every time either publishes.
    ///
    /// ```swift
    /// let c = width.combineLatest(height).sink { print($0 * $1) }
    /// ```
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where Failure == P.Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Subscribes to an additional publisher and publishes `transform` of the latest value
    /// of each, once both have published, every time either publishes.
    ///
    /// ```swift
    /// let area = width.combineLatest(height) { $0 * $1 }
    /// ```
    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where Failure == P.Failure {
        Publishers.CombineLatest(self, other).map { transform($0.0, $0.1) }
    }
}
