extension Publishers {
    /// A publisher created by applying the zip function to two upstream publishers, as in
    /// Combine: it pairs the oldest unpaired value of each.
    ///
    /// It waits until both upstreams have published a value, then publishes the tuple of
    /// their oldest unpaired values; each value is used once. It finishes as soon as one
    /// upstream has finished and none of its values is left to pair, and fails as soon as
    /// either fails (cancelling the other).
    ///
    /// ```swift
    /// let numbers = PassthroughSubject<Int, Never>()
    /// let letters = PassthroughSubject<String, Never>()
    /// let c = numbers.zip(letters).sink { print($0, $1) }
    /// numbers.send(1)
    /// numbers.send(2)      // nothing yet: no letter
    /// letters.send("A")    // prints "1 A"
    /// letters.send("B")    // prints "2 B"
    /// ```
    ///
    /// Demand is Combine's: each tuple consumes one unit of the subscriber's demand, and
    /// each upstream is asked for as many values as the subscriber asked for tuples. Values
    /// sent beyond that wait until they can be paired and delivered. Upstreams may publish
    /// on different threads; the subscriber is never called concurrently.
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// Tuples of one value of each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The failure type shared by the upstreams.
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A
        /// Another publisher to zip.
        public let b: B

        /// Creates a publisher that zips `a` and `b`.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Gives `subscriber` its subscription, then subscribes to `a` and `b`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = ZipCore<ZipBuffers2<A.Output, B.Output>, S>(downstream: subscriber)
            subscriber.receive(subscription: core)
            a.subscribe(core.side(0) { $0.a.append($1) })
            b.subscribe(core.side(1) { $0.b.append($1) })
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}

/// The unpaired values of the two upstreams of a `Zip`.
struct ZipBuffers2<A, B>: ZipBuffers {
    var a = ZipBuffer<A>()
    var b = ZipBuffer<B>()

    static var count: Int { 2 }

    init() {}

    func isEmpty(_ index: Int) -> Bool {
        index == 0 ? a.isEmpty : b.isEmpty
    }

    mutating func removeFirst() -> (A, B) {
        (a.removeFirst(), b.removeFirst())
    }
}

extension Publisher {
    /// Combines elements from another publisher and delivers pairs of elements as tuples:
    /// the oldest unpaired value of each, once both have one.
    ///
    /// ```swift
    /// let c = requests.zip(responses).sink { request, response in log(request, response) }
    /// ```
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P> where Failure == P.Failure {
        Publishers.Zip(self, other)
    }

    /// Combines elements from another publisher and delivers `transform` of each pair: the
    /// oldest unpaired value of each, once both have one.
    ///
    /// ```swift
    /// let c = numbers.zip(letters) { String(repeating: $1, count: $0) }.sink { print($0) }
    /// ```
    public func zip<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where Failure == P.Failure {
        Publishers.Zip(self, other).map { transform($0.0, $0.1) }
    }
}
