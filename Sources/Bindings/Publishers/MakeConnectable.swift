extension Publishers {
    /// A connectable publisher made of any publisher that cannot fail, as in Combine:
    /// subscribers attach first, and ``connect()`` starts the upstream. Create one with
    /// ``Publisher/makeConnectable()``.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher where Upstream.Failure == Never {
        /// The kind of values this publisher publishes: the upstream's.
        public typealias Output = Upstream.Output
        /// This publisher cannot fail.
        public typealias Failure = Never

        private let inner: Multicast<Upstream, PassthroughSubject<Output, Never>>

        /// Creates a connectable publisher of `upstream`.
        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream) { PassthroughSubject() }
        }

        /// Attaches `subscriber`: it receives what the upstream sends once connected.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            inner.receive(subscriber: subscriber)
        }

        /// Subscribes to the upstream; cancel the result to stop.
        public func connect() -> any Cancellable {
            inner.connect()
        }
    }
}

// `@unchecked Sendable` when the upstream is: `inner` is a `Multicast` whose closure
// captures nothing, and which keeps its subject under its lock; the subject is thread-safe.
extension Publishers.MakeConnectable: @unchecked Sendable where Upstream: Sendable {}

extension Publisher where Failure == Never {
    /// Makes this publisher connectable: it sends nothing until ``ConnectablePublisher/connect()``.
    ///
    /// ```swift
    /// let connectable = [1, 2, 3].publisher.makeConnectable()
    /// let c = connectable.sink { print($0) }
    /// let connection = connectable.connect()   // prints 1, 2, 3
    /// ```
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}
