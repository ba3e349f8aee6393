extension Publishers {
    /// A publisher that transforms every element of an upstream publisher into a new
    /// publisher, and merges the elements of all of them, as in Combine.
    ///
    /// At most `maxPublishers` inner publishers are subscribed at once: the upstream is
    /// asked for `maxPublishers` elements, then for one more each time an inner publisher
    /// finishes (an element it sends beyond what it was asked for is dropped, and an inner
    /// publisher that completes twice frees one slot). It finishes when the upstream and
    /// every inner publisher have finished; it fails as soon as any of them fails
    /// (cancelling the others).
    ///
    /// ```swift
    /// let ids = PassthroughSubject<Int, Never>()
    /// let c = ids.flatMap(maxPublishers: .max(2)) { id in fetch(id) }.sink { show($0) }
    /// ```
    ///
    /// Demand is Combine's: each inner publisher has at most one element requested while
    /// the subscriber's demand is finite (one element per inner may wait for demand), all
    /// of them once it is unlimited. Publishers may publish on different threads; the
    /// subscriber is never called concurrently.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The inner publishers' output type.
        public typealias Output = NewPublisher.Output
        /// The failure type shared by the upstream and the inner publishers.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of inner publishers subscribed at once.
        public let maxPublishers: Subscribers.Demand
        /// The closure that turns an upstream element into a publisher.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that merges the publishers `transform` makes of the
        /// elements of `upstream`, at most `maxPublishers` at a time.
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(
                downstream: subscriber, replenishesSource: maxPublishers != .unlimited,
                description: "FlatMap")
            subscriber.receive(subscription: core)
            upstream.subscribe(Outer(core: core, maxPublishers: maxPublishers, transform: transform))
        }
    }
}

extension Publishers.FlatMap {
    /// The subscriber to the upstream: turns each element into an inner publisher and
    /// subscribes the merge to it.
    private struct Outer<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output

        let core: MergeCore<Downstream>
        let maxPublishers: Subscribers.Demand
        let transform: (Upstream.Output) -> NewPublisher
        let combineIdentifier = CombineIdentifier()

        var description: String { "FlatMap" }

        func receive(subscription: any Subscription) {
            core.receiveSource(subscription: subscription, maxPublishers: maxPublishers)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard let id = core.addInner() else { return .none }
            transform(input).subscribe(core.side(id))
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            core.receiveSource(completion: completion)
        }
    }
}

extension Publisher {
    /// Transforms every element into a publisher and merges the elements of all of them,
    /// subscribing to at most `maxPublishers` at once.
    ///
    /// ```swift
    /// let c = ids.flatMap(maxPublishers: .max(2)) { fetch($0) }.sink { show($0) }
    /// ```
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// Transforms every element of this never-failing publisher into a publisher that
    /// may fail, and merges their elements; the first failure ends the stream.
    ///
    /// ```swift
    /// let c = ids.flatMap { fetch($0) }   // ids: Never-failing; fetch: AnyPublisher<Item, FetchError>
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { show($0) })
    /// ```
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(
            upstream: setFailureType(to: P.Failure.self), maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms every element into a publisher and merges their elements; neither
    /// this publisher nor those can fail.
    ///
    /// ```swift
    /// let c = rows.flatMap { $0.$title }.sink { print($0) }
    /// ```
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// Transforms every element into a publisher that cannot fail, and merges their
    /// elements; only this publisher's failure ends the stream early.
    ///
    /// ```swift
    /// let c = requests.flatMap { Just($0.id) }   // requests may fail; Just cannot
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            transform($0).setFailureType(to: Failure.self)
        }
    }
}
