extension Publishers {
    /// A publisher that publishes only elements that don't match the previously
    /// published element, as in Combine.
    ///
    /// ```swift
    /// let c = numbers.removeDuplicates().sink { print($0) }   // 1, 1, 2, 2, 1 print 1, 2, 1
    /// ```
    ///
    /// Each element is compared with the last one published. The subscriber receives the
    /// upstream subscription; each dropped duplicate is replaced by asking upstream for
    /// one more element (`.max(1)`).
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that returns whether two elements are duplicates: `true` drops the
        /// second one.
        public let predicate: (Output, Output) -> Bool

        /// Creates a publisher that drops each element for which
        /// `predicate(lastPublished, element)` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        // `@inlinable` (here and in `Inner`): a value costs one predicate call and one
        // forward; inlined, a client's pipeline is specialised for its concrete types.
        /// Attaches `subscriber` to the upstream publisher through the comparison.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.RemoveDuplicates {
    /// Remembers the last published value; passes the upstream subscription through.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let predicate: (Output, Output) -> Bool
        /// Only touched by `receive(_:)`, which the upstream calls one value at a time
        /// (the subscriber contract); `@exclusivity(unchecked)` saves the dynamic
        /// exclusivity check that per-value path would pay.
        @exclusivity(unchecked) @usableFromInline var last: Output?
        /// 0 awaiting the subscription, 1 subscribed, 2 completed. Touched only by the
        /// upstream's calls, which the subscriber contract serialises (the subscription
        /// comes first, and whatever hands it over orders the calls after it).
        @exclusivity(unchecked) @usableFromInline var state: UInt8 = 0

        @inlinable
        init(downstream: Downstream, predicate: @escaping (Output, Output) -> Bool) {
            self.downstream = downstream
            self.predicate = predicate
        }

        @usableFromInline var description: String { "RemoveDuplicates" }

        /// The subscriber and the last published value, as Combine shows them. `last`
        /// belongs to the delivering thread: reflect from there (a breakpoint or `dump` in
        /// a callback).
        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["downstream": downstream, "last": last as Any])
        }

        /// Passes the first subscription on; cancels any later one, as Combine does.
        @inlinable
        func receive(subscription: any Subscription) {
            guard state == 0 else {
                subscription.cancel()
                return
            }
            state = 1
            downstream.receive(subscription: subscription)
        }

        /// As Combine's: a value before the subscription stops the program (an upstream
        /// that breaks the contract); one after the completion is dropped.
        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            if state != 1 {
                if state == 0 { Self.eventBeforeSubscription("a value") }
                return .none
            }
            if let last, predicate(last, input) {
                // The duplicate used up one unit of demand: ask for a replacement.
                return .max(1)
            }
            last = input
            return downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            if state != 1 {
                if state == 0 { Self.eventBeforeSubscription("a completion") }
                return
            }
            state = 2
            last = nil
            downstream.receive(completion: completion)
        }

        /// Stops the program, naming the upstream's mistake. `fatalError`, not
        /// `precondition`: the message must survive -O builds.
        @usableFromInline
        static func eventBeforeSubscription(_ what: String) -> Never {
            fatalError(
                "Bindings: removeDuplicates received \(what) before its subscription: the upstream publisher must call receive(subscription:) first")
        }
    }
}

extension Publishers.RemoveDuplicates {
    /// Not for use: the upstream's fused sink, through the comparison with the last
    /// value published (see `Publisher._fusedSink`).
    @inlinable
    public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
        let predicate = self.predicate
        let last = FusedState<Output?>(nil)
        return upstream._fusedSink { value in
            if let previous = last.value, predicate(previous, value) { return }
            last.value = value
            receiveValue(value)
        }
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as judged by
    /// `predicate` (`true` means "duplicate: drop it").
    ///
    /// ```swift
    /// let c = names.removeDuplicates { $0.lowercased() == $1.lowercased() }.sink { print($0) }
    /// ```
    @inlinable
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publisher where Output: Equatable {
    /// Publishes only elements that don't equal the previous element.
    ///
    /// ```swift
    /// let c = person.$firstName.removeDuplicates().sink { print($0) }
    /// ```
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}
