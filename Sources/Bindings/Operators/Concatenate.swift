extension Publishers {
    /// A publisher that emits all of one publisher's elements before those from another
    /// publisher, as in Combine; `prepend(_:)` makes one.
    ///
    /// ```swift
    /// let c = subject.prepend(0).sink { print($0) }   // 0 at once, then the subject's values
    /// ```
    ///
    /// It subscribes to `prefix` first and to `suffix` only when `prefix` finishes
    /// (a failure of `prefix` ends the stream). Demand carries over: what the subscriber
    /// asked for and did not get from `prefix` is requested from `suffix`.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        /// The kind of values published: both publishers'.
        public typealias Output = Suffix.Output
        /// The kind of errors this publisher might publish: both publishers'.
        public typealias Failure = Suffix.Failure

        /// The publisher to republish, in its entirety, before `suffix`.
        public let prefix: Prefix
        /// The publisher to republish only after `prefix` finishes.
        public let suffix: Suffix

        /// Creates a publisher that republishes `prefix`, then `suffix`.
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Attaches `subscriber`, then subscribes to `prefix`.
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Suffix.Output, S.Failure == Suffix.Failure {
            let inner = Inner(downstream: subscriber, suffix: suffix)
            // Subscriber first, as in Combine: its requests are kept until `prefix`
            // (or later `suffix`) hands over its subscription.
            subscriber.receive(subscription: inner)
            prefix.subscribe(inner)
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}
extension Publishers.Concatenate: Sendable where Prefix: Sendable, Suffix: Sendable {}

extension Publishers.Concatenate {
    /// Subscribes to each publisher in turn and carries the outstanding demand over.
    ///
    /// As Combine's: it never delivers more than was demanded, nor anything after the
    /// end (an upstream that breaks the rules loses what it sends too much or too late);
    /// `request(.none)` passes through to the upstream; a cancel releases the suffix.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
        private enum Phase {
            case awaitingPrefix, prefix, awaitingSuffix, suffix, terminal
        }

        /// Guards `downstream`, `phase`, `upstream`, `demand` and `suffix`, which
        /// `request`/`cancel` (any thread) and the upstreams' calls share.
        private let spin = CompactLock()
        /// Let go of at the end (the completion delivered, or a cancel), so that a
        /// subscriber that keeps its subscription is not kept by it in turn.
        @exclusivity(unchecked) private var downstream: Downstream?
        @exclusivity(unchecked) private var phase = Phase.awaitingPrefix
        @exclusivity(unchecked) private var upstream: (any Subscription)?
        /// What the subscriber asked for and has not received yet: requested from `suffix`
        /// when it takes over, and the bound on what is delivered.
        @exclusivity(unchecked) private var demand = Subscribers.Demand.none
        /// The publisher to subscribe to after `prefix`; released when it is subscribed, or
        /// at the end.
        @exclusivity(unchecked) private var suffix: Suffix?

        init(downstream: Downstream, suffix: Suffix) {
            self.downstream = downstream
            self.suffix = suffix
        }

        var description: String { "Concatenate" }

        func receive(subscription: any Subscription) {
            spin.lock()
            switch phase {
            case .awaitingPrefix: phase = .prefix
            case .awaitingSuffix: phase = .suffix
            case .prefix, .suffix, .terminal:
                spin.unlock()
                subscription.cancel()
                return
            }
            upstream = subscription
            let demand = self.demand
            spin.unlock()
            if demand > .none { subscription.request(demand) }
        }

        func receive(_ input: Suffix.Output) -> Subscribers.Demand {
            spin.lock()
            // Only what was asked for, and only while an upstream is ours.
            guard phase == .prefix || phase == .suffix, demand > .none, let downstream else {
                spin.unlock()
                return .none
            }
            demand -= 1
            spin.unlock()
            // Consumed: a cancel during the call may leave this copy the last reference,
            // which must not go under `spin` (the subscriber's `deinit` may call back in).
            let more = (consume downstream).receive(input)
            if more > .none { spin.withLock { demand += more } }
            return more
        }

        func receive(completion: Subscribers.Completion<Suffix.Failure>) {
            spin.lock()
            // Released after unlocking, not under `spin`: their deinits may run user code.
            let finished = upstream
            switch (phase, completion) {
            case (.prefix, .finished):
                phase = .awaitingSuffix
                upstream = nil
                let next = suffix
                suffix = nil
                spin.unlock()
                withExtendedLifetime(finished) {}
                next?.subscribe(self)
            case (.prefix, .failure), (.suffix, _):
                phase = .terminal
                upstream = nil
                let dropped = suffix
                suffix = nil
                let downstream = self.downstream.take()
                spin.unlock()
                withExtendedLifetime((finished, dropped)) {}
                downstream?.receive(completion: completion)
            case (.awaitingPrefix, _), (.awaitingSuffix, _), (.terminal, _):
                spin.unlock()
            }
        }

        func request(_ demand: Subscribers.Demand) {
            // `.none` passes through, as in Combine (the upstream decides).
            spin.lock()
            guard phase != .terminal else {
                spin.unlock()
                return
            }
            self.demand += demand
            let upstream = self.upstream
            spin.unlock()
            upstream?.request(demand)
        }

        func cancel() {
            spin.lock()
            guard phase != .terminal else {
                spin.unlock()
                return
            }
            phase = .terminal
            let upstream = self.upstream
            self.upstream = nil
            let dropped = (suffix, downstream)
            suffix = nil
            downstream = nil
            spin.unlock()
            upstream?.cancel()
            withExtendedLifetime(dropped) {}
        }
    }
}

extension Publisher {
    /// Prefixes this publisher's output with the specified values.
    ///
    /// ```swift
    /// let c = subject.prepend(1, 2).sink { print($0) }   // 1, 2, then the subject's values
    /// ```
    public func prepend(
        _ elements: Output...
    ) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(elements)
    }

    /// Prefixes this publisher's output with the elements of a sequence.
    ///
    /// ```swift
    /// let c = subject.prepend(history).sink { print($0) }
    /// ```
    public func prepend<S: Swift.Sequence>(
        _ elements: S
    ) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self> where S.Element == Output {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes this publisher's output with the elements of another publisher; this one
    /// is subscribed to only when `publisher` finishes.
    ///
    /// ```swift
    /// let c = live.prepend(cached).sink { print($0) }
    /// ```
    public func prepend<P: Publisher>(
        _ publisher: P
    ) -> Publishers.Concatenate<P, Self> where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }
}

extension Publisher {
    /// Appends the specified values to this publisher's output, once it finishes.
    ///
    /// ```swift
    /// let c = subject.append(3, 4).sink { print($0) }   // the subject's values, then 3, 4
    /// ```
    public func append(
        _ elements: Output...
    ) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(elements)
    }

    /// Appends the elements of a sequence to this publisher's output, once it finishes.
    ///
    /// ```swift
    /// let c = history.append(pending).sink { print($0) }
    /// ```
    public func append<S: Swift.Sequence>(
        _ elements: S
    ) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>> where S.Element == Output {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends the output of another publisher, subscribed to only when this one
    /// finishes.
    ///
    /// ```swift
    /// let c = cached.append(live).sink { print($0) }
    /// ```
    public func append<P: Publisher>(
        _ publisher: P
    ) -> Publishers.Concatenate<Self, P> where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}
