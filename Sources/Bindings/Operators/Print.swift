extension Publishers {
    /// A publisher that prints log messages for all publishing events, optionally
    /// prefixed with a given string, as in Combine.
    ///
    /// ```swift
    /// let c = [1, 2].publisher.print("numbers").sink { _ in }
    /// // numbers: receive subscription: ([1, 2])
    /// // numbers: request unlimited
    /// // numbers: receive value: (1)
    /// // numbers: receive value: (2)
    /// // numbers: receive finished
    /// ```
    ///
    /// It logs the subscription, each request (`request max: (n)`, `request unlimited`,
    /// and `(synchronous)` for more demand returned from receiving a value), each value,
    /// the completion (`receive finished`, `receive error: (error)`) and a cancel
    /// (`receive cancel`), one line each, to `stream` or else to standard output.
    /// Everything is forwarded as it is; what a careless upstream sends after the
    /// completion or a cancel is dropped, unlogged. A request of zero is logged and
    /// passed upstream, as in Combine.
    ///
    /// `stream` is written from the threads on which the events happen, without a lock:
    /// a stream shared between threads must take care of that itself. As in Combine, a
    /// value-type stream (a `String`) is copied for each message, so only a stream that
    /// is a class sees the messages.
    public struct Print<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// A string with which to prefix all log messages (followed by `": "` when it is
        /// not empty).
        public let prefix: String

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Where the messages go; `nil` for standard output.
        public let stream: (any TextOutputStream)?

        /// Creates a publisher that prints log messages for all publishing events of
        /// `upstream`.
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Attaches `subscriber` to the upstream publisher through the log.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, stream: stream))
        }
    }
}

extension Publishers.Print {
    /// Logs and forwards every event; it is the subscriber's subscription, so that it
    /// sees requests and cancels.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        private enum State {
            case awaitingSubscription
            case subscribed
            case done
        }

        /// The prefix with its separator, or nothing.
        private let prefix: String
        private let stream: (any TextOutputStream)?
        /// Guards `state`, `upstream` and `downstream`, which `request`/`cancel` (any
        /// thread) and the upstream's calls share. Never held while calling out or
        /// writing.
        private let lock = CompactLock()
        @exclusivity(unchecked) private var state = State.awaitingSubscription
        @exclusivity(unchecked) private var upstream: (any Subscription)?
        @exclusivity(unchecked) private var downstream: Downstream?

        init(downstream: Downstream, prefix: String, stream: (any TextOutputStream)?) {
            self.downstream = downstream
            self.prefix = prefix.isEmpty ? "" : "\(prefix): "
            self.stream = stream
        }

        var description: String { "Print" }

        func receive(subscription: any Subscription) {
            log("receive subscription: (\(subscription))")
            lock.lock()
            guard case .awaitingSubscription = state else {
                lock.unlock()
                subscription.cancel()
                return
            }
            state = .subscribed
            upstream = subscription
            let downstream = self.downstream
            lock.unlock()
            downstream?.receive(subscription: self)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed = state, let downstream else {
                lock.unlock()
                return .none
            }
            lock.unlock()
            log("receive value: (\(input))")
            let demand = downstream.receive(input)
            if demand > .none { logRequest(demand, suffix: " (synchronous)") }
            return demand
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.lock()
            guard case .subscribed = state else {
                lock.unlock()
                return
            }
            state = .done
            let upstream = self.upstream.take()
            let downstream = self.downstream.take()
            lock.unlock()
            withExtendedLifetime(upstream) {}
            switch completion {
            case .finished: log("receive finished")
            case .failure(let error): log("receive error: (\(error))")
            }
            downstream?.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            logRequest(demand, suffix: "")
            lock.lock()
            let upstream = if case .subscribed = state { self.upstream } else { nil as (any Subscription)? }
            lock.unlock()
            upstream?.request(demand)
        }

        func cancel() {
            log("receive cancel")
            lock.lock()
            let wasSubscribed = if case .subscribed = state { true } else { false }
            state = .done
            let upstream = self.upstream.take()
            let downstream = self.downstream.take()
            lock.unlock()
            if wasSubscribed { upstream?.cancel() }
            withExtendedLifetime(downstream) {}
        }

        private func logRequest(_ demand: Subscribers.Demand, suffix: String) {
            if let max = demand.max {
                log("request max: (\(max))\(suffix)")
            } else {
                log("request unlimited\(suffix)")
            }
        }

        /// Writes one line, as Combine does: to a copy of `stream`, or to standard output.
        private func log(_ message: String) {
            if let stream {
                var target = Target(stream: stream)
                Swift.print(prefix + message, to: &target)
            } else {
                Swift.print(prefix + message)
            }
        }
    }

    /// A concrete stream around the given one, for `print(_:to:)` (which the compiler
    /// cannot yet open an existential stream for).
    private struct Target: TextOutputStream {
        var stream: any TextOutputStream

        mutating func write(_ string: String) {
            stream.write(string)
        }
    }
}

extension Publisher {
    /// Prints log messages for all publishing events, each prefixed with `prefix` and
    /// `": "` when `prefix` is not empty, to `stream` or else to standard output.
    ///
    /// ```swift
    /// let c = [1, 2].publisher.print("numbers").sink { _ in }
    /// // numbers: receive subscription: ([1, 2])
    /// // numbers: request unlimited
    /// // numbers: receive value: (1)
    /// // numbers: receive value: (2)
    /// // numbers: receive finished
    /// ```
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}
