extension Publishers {
    /// A publisher shared by all its subscribers, as in Combine: one subscription to the
    /// upstream, made when the first subscriber attaches and cancelled when the last one
    /// cancels, whose events reach every subscriber attached at the time. Create one with
    /// ``Publisher/share()``.
    ///
    /// A class, compared by identity: the shared subscription is its state. Values go
    /// only to the subscribers attached, and with demand, when they are sent (a
    /// `PassthroughSubject` relays them); one that attaches after the upstream finished
    /// gets the completion at once, as in Combine.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {

        /// The kind of values this publisher publishes: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        @usableFromInline let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Creates a publisher that shares `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
            inner = Multicast(upstream: upstream) { PassthroughSubject() }.autoconnect()
        }

        /// Attaches `subscriber`; the first one starts the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`): one
        /// closure on the shared subject, counted as a subscriber.
        @inlinable
        public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
            inner._fusedSink(receiveValue)
        }

        /// Whether both are the same shared publisher.
        public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }
    }
}

// `@unchecked Sendable` when the upstream is: both stored properties are `let`s; `inner`
// keeps its state under its lock (`Autoconnect`), and its `Multicast`'s subject, made
// under that one's lock by a closure that captures nothing, is a thread-safe subject.
extension Publishers.Share: @unchecked Sendable where Upstream: Sendable {}

extension Publisher {
    /// Shares one subscription to this publisher among all subscribers, as in Combine.
    ///
    /// ```swift
    /// let shared = expensiveQuery.share()
    /// let a = shared.sink { print("a", $0) }   // subscribes upstream
    /// let b = shared.sink { print("b", $0) }   // joins it
    /// ```
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}
