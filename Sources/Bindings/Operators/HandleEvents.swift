extension Publishers {
    /// A publisher that performs the specified closures when publisher events occur, as
    /// in Combine.
    ///
    /// ```swift
    /// let c = subject
    ///     .handleEvents(receiveOutput: { print("got", $0) }, receiveCancel: { print("cancelled") })
    ///     .sink { _ in }
    /// ```
    ///
    /// The closures run without any lock held, so they may send, subscribe or cancel.
    /// `receiveCancel` runs once, when the subscriber cancels before the stream ended;
    /// `receiveRequest` sees both `request(_:)` calls and the extra demand the subscriber
    /// returns from receiving a value.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// Runs when the upstream subscription arrives, with that subscription.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// Runs for each element from upstream, before the subscriber receives it.
        public var receiveOutput: ((Upstream.Output) -> Void)?
        /// Runs when the upstream completes, before the subscriber receives it.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        /// Runs when the subscriber cancels, before the upstream is cancelled.
        public var receiveCancel: (() -> Void)?
        /// Runs when the subscriber asks for more elements.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a publisher that runs the given closures on the events of `upstream`.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Upstream.Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches `subscriber`, then subscribes to the upstream publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Upstream.Output, S.Failure == Upstream.Failure {
            let inner = Inner(self, downstream: subscriber)
            // Subscriber first, as in Combine: its early requests wait in `pending`.
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.HandleEvents {
    /// Runs the closures and forwards everything; it is the subscription the subscriber
    /// gets, so that it can see requests and cancellation.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        private enum State {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminal
        }

        private let downstream: Downstream
        // The closures only, not the publisher: holding `upstream` would keep it alive
        // for as long as the subscriber holds this subscription.
        private let receiveSubscription: ((any Subscription) -> Void)?
        private let receiveOutput: ((Upstream.Output) -> Void)?
        private let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        private let receiveCancel: (() -> Void)?
        private let receiveRequest: ((Subscribers.Demand) -> Void)?
        /// Guards `state` and `pending`, which `request`/`cancel` (any thread) and the
        /// upstream's subscription and completion calls share. Never taken for a value.
        private let spin = CompactLock()
        @exclusivity(unchecked) private var state = State.awaitingSubscription
        /// Demand requested before the upstream subscription arrived.
        @exclusivity(unchecked) private var pending = Subscribers.Demand.none

        init(_ events: Publishers.HandleEvents<Upstream>, downstream: Downstream) {
            self.downstream = downstream
            receiveSubscription = events.receiveSubscription
            receiveOutput = events.receiveOutput
            receiveCompletion = events.receiveCompletion
            receiveCancel = events.receiveCancel
            receiveRequest = events.receiveRequest
        }

        var description: String { "HandleEvents" }

        func receive(subscription: any Subscription) {
            receiveSubscription?(subscription)
            spin.lock()
            guard case .awaitingSubscription = state else {
                // Cancelled before upstream answered, or a second subscription.
                spin.unlock()
                subscription.cancel()
                return
            }
            state = .subscribed(subscription)
            let pending = self.pending
            self.pending = .none
            spin.unlock()
            if pending > .none { subscription.request(pending) }
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            receiveOutput?(input)
            let demand = downstream.receive(input)
            if demand > .none { receiveRequest?(demand) }
            return demand
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            spin.lock()
            guard case .subscribed(let upstream) = state else {
                spin.unlock()
                return
            }
            state = .terminal
            spin.unlock()
            // Released here, not under `spin`: its deinit may run user code.
            withExtendedLifetime(upstream) {}
            receiveCompletion?(completion)
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            // `.none` is accepted (adds nothing; an operator passes it upstream, which
            // decides), as in Combine, which traps on it only in some subscriptions.
            if isTerminal { return }
            receiveRequest?(demand)
            spin.lock()
            switch state {
            case .awaitingSubscription:
                pending += demand
                spin.unlock()
            case .subscribed(let upstream):
                spin.unlock()
                upstream.request(demand)
            case .terminal:
                spin.unlock()
            }
        }

        func cancel() {
            spin.lock()
            let previous = state
            state = .terminal
            spin.unlock()
            switch previous {
            case .terminal:
                return
            case .awaitingSubscription:
                receiveCancel?()
            case .subscribed(let upstream):
                receiveCancel?()
                upstream.cancel()
            }
        }

        private var isTerminal: Bool {
            spin.lock()
            defer { spin.unlock() }
            if case .terminal = state { return true }
            return false
        }
    }
}

extension Publisher {
    /// Performs the specified closures when publisher events occur; every closure is
    /// optional.
    ///
    /// ```swift
    /// let c = feed
    ///     .handleEvents(receiveSubscription: { _ in print("start") },
    ///                   receiveCancel: { print("stop") })
    ///     .sink { print($0) }
    /// ```
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
            receiveRequest: receiveRequest)
    }
}
