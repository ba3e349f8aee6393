extension Publishers {
    /// A publisher that republishes elements until another publisher emits an element, as
    /// in Combine.
    ///
    /// It asks `other` for one value, and republishes the upstream's values until that
    /// value comes; then it finishes, cancelling both. The completion of `other` is
    /// ignored (its failure type is free for that reason).
    ///
    /// ```swift
    /// let ticks = PassthroughSubject<Int, Never>()
    /// let stop = PassthroughSubject<Void, Never>()
    /// let c = ticks.prefix(untilOutputFrom: stop).sink(
    ///     receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ticks.send(1)      // prints 1
    /// stop.send()        // prints "finished"
    /// ticks.send(2)      // nothing
    /// ```
    ///
    /// Demand passes through to the upstream. `other` may publish on another thread than
    /// the upstream; the subscriber is never called concurrently.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes the elements of `upstream` until `other`
        /// publishes an element.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Gives `subscriber` its subscription, then subscribes to `other` and to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = UntilOutputInner<Other.Output, Other.Failure, S>(
                downstream: subscriber, mode: .prefix, description: "PrefixUntilOutput")
            subscriber.receive(subscription: inner)
            inner.subscribe(upstream: upstream, other: other)
        }
    }
}

extension Publisher {
    /// Republishes elements until another publisher emits an element, then finishes.
    ///
    /// ```swift
    /// let c = ticks.prefix(untilOutputFrom: stop).sink { print($0) }
    /// ```
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}
