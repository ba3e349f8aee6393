extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an
    /// element from a second publisher, as in Combine.
    ///
    /// It asks `other` for one value; until that value comes, the upstream's values are
    /// dropped, and then they pass (`other` is cancelled). If `other` completes before
    /// publishing, its completion ends the stream and the upstream is cancelled.
    ///
    /// ```swift
    /// let readings = PassthroughSubject<Int, Never>()
    /// let calibrated = PassthroughSubject<Void, Never>()
    /// let c = readings.drop(untilOutputFrom: calibrated).sink { print($0) }
    /// readings.send(1)       // dropped
    /// calibrated.send()
    /// readings.send(2)       // prints 2
    /// ```
    ///
    /// Demand passes through to the upstream, and a value dropped before `other` publishes
    /// uses up one unit of it, as in Combine. `other` may publish on another thread than
    /// the upstream; the subscriber is never called concurrently.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The failure type shared by the upstream and the other publisher.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a publisher that drops the elements of `upstream` until `other`
        /// publishes an element.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Gives `subscriber` its subscription, then subscribes to `other` and to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = UntilOutputInner<Other.Output, Other.Failure, S>(
                downstream: subscriber, mode: .drop(forward: { $0 }), description: "DropUntilOutput")
            subscriber.receive(subscription: inner)
            inner.subscribe(upstream: upstream, other: other)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a
    /// second publisher.
    ///
    /// ```swift
    /// let c = readings.drop(untilOutputFrom: calibrated).sink { print($0) }
    /// ```
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}
