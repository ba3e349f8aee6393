extension Publishers {
    /// A connectable publisher that sends its upstream's events through one subject to
    /// all its subscribers, as in Combine. Create one with
    /// ``Publisher/multicast(_:)`` or ``Publisher/multicast(subject:)``.
    ///
    /// The subject is made by `createSubject` the first time it is needed (a subscriber
    /// attaches, or ``connect()``), then kept: subscribers attach to it, and ``connect()``
    /// subscribes it to the upstream. A class, because that one subject is shared.
    ///
    /// Not `Sendable`, as in Combine: `createSubject` may capture anything. (``Share``,
    /// built on it with a closure that captures nothing, is.)
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where SubjectType.Output == Upstream.Output, SubjectType.Failure == Upstream.Failure {

        /// The kind of values this publisher publishes: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// Makes the subject that delivers the upstream's events to the subscribers.
        public let createSubject: () -> SubjectType

        private let lock = Lock()
        /// Made the first time it is needed; guarded by `lock`.
        private var madeSubject: SubjectType?

        /// Creates a multicast publisher of `upstream` through the subject that
        /// `createSubject` makes.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The subject, made the first time.
        @usableFromInline
        var subject: SubjectType {
            lock.withLock {
                if let madeSubject { return madeSubject }
                let made = createSubject()
                madeSubject = made
                return made
            }
        }

        /// Attaches `subscriber` to the subject: it receives what the upstream sends once
        /// connected.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.subscribe(subscriber)
        }

        /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`): the
        /// subject's fused sink.
        @inlinable
        public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
            subject._fusedSink(receiveValue)
        }

        /// Subscribes the subject to the upstream; cancel the result to stop.
        public func connect() -> any Cancellable {
            upstream.subscribe(subject)
        }
    }
}

extension Publisher {
    /// Sends this publisher's events through a subject that `createSubject` makes, to
    /// every subscriber, once connected, as in Combine.
    ///
    /// ```swift
    /// let multicast = readings.multicast { PassthroughSubject<Int, Never>() }
    /// let a = multicast.sink { print("a", $0) }
    /// let b = multicast.sink { print("b", $0) }
    /// let connection = multicast.connect()
    /// ```
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Sends this publisher's events through `subject` to every subscriber, once
    /// connected, as in Combine.
    ///
    /// ```swift
    /// let relay = PassthroughSubject<Int, Never>()
    /// let multicast = readings.multicast(subject: relay)
    /// ```
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self) { subject }
    }
}
