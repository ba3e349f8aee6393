import Synchronization

extension Publishers {
    /// A publisher that connects its connectable upstream when the first subscriber
    /// attaches, and cancels the connection when the last one cancels, as in Combine.
    /// Create one with ``ConnectablePublisher/autoconnect()``.
    ///
    /// A class: the connection and the count of subscribers are shared by all of them.
    /// A subscriber that finishes (rather than cancels) still counts, as in Combine.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {

        /// The kind of values this publisher publishes: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher that this one connects.
        public final let upstream: Upstream


        private let lock = Lock()
        /// How many subscribers are attached and have not cancelled.
        private var subscribers = 0
        /// The connection, while subscribers are attached.
        private var connection: (any Cancellable)?

        /// Creates a publisher that connects `upstream` when first subscribed to.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the upstream, then connects it if it is the first.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let first = subscriberAttaching()
            upstream.subscribe(Inner(parent: self, downstream: subscriber))
            if first { connectFirst() }
        }

        /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`): the
        /// upstream's fused sink, counted as a subscriber, when the upstream has one.
        @inlinable
        public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
            let first = subscriberAttaching()
            guard let registered = upstream._fusedSink(receiveValue) else {
                subscriberCancelled()   // not attached after all: `sink` subscribes as usual
                return nil
            }
            if first { connectFirst() }
            return AnyCancellable.unchecked { [self] in
                registered.cancel()
                subscriberCancelled()
            }
        }

        /// Counts a subscriber; returns whether it is the first (which then connects).
        @usableFromInline
        func subscriberAttaching() -> Bool {
            lock.withLock {
                subscribers += 1
                return subscribers == 1 && self.connection == nil
            }
        }

        /// Connects, for the first subscriber, once it is attached.
        @usableFromInline
        func connectFirst() {
            let connection = upstream.connect()
            // Every subscriber may have cancelled while connecting: then cancel it now.
            let keep = lock.withLock {
                guard subscribers > 0, self.connection == nil else { return false }
                self.connection = connection
                return true
            }
            if !keep { connection.cancel() }
        }

        /// A subscriber cancelled: the last one disconnects.
        @usableFromInline
        func subscriberCancelled() {
            let connection: (any Cancellable)? = lock.withLock {
                subscribers -= 1
                guard subscribers == 0 else { return nil }
                return self.connection.take()
            }
            connection?.cancel()
        }

        /// Passes the upstream's events on; its subscription, given to the subscriber,
        /// counts the cancel. A struct holding the subscriber, as `map`'s, so that no
        /// cycle forms with a subscriber that keeps its subscription.
        private struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            let parent: Autoconnect
            let downstream: Downstream
            let combineIdentifier = CombineIdentifier()

            var description: String { "Autoconnect" }

            func receive(subscription: any Subscription) {
                downstream.receive(subscription: Counted(parent: parent, upstream: subscription))
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }

        /// The subscription a subscriber holds: demand goes upstream; the first cancel
        /// also tells the parent.
        private final class Counted: Subscription, CustomStringConvertible {
            let parent: Autoconnect
            let upstream: any Subscription
            let cancelled = Atomic<Bool>(false)

            init(parent: Autoconnect, upstream: any Subscription) {
                self.parent = parent
                self.upstream = upstream
            }

            var description: String { "Autoconnect" }

            func request(_ demand: Subscribers.Demand) { upstream.request(demand) }

            func cancel() {
                guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
                upstream.cancel()
                parent.subscriberCancelled()
            }
        }
    }
}

// `@unchecked Sendable` when the upstream is: `upstream` is a `let`; `subscribers` and
// `connection` are only touched with `lock` held (the connection is cancelled after
// unlocking).
extension Publishers.Autoconnect: @unchecked Sendable where Upstream: Sendable {}
