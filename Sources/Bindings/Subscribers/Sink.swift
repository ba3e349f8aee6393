import Synchronization

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon
    /// subscription, as in Combine.
    ///
    /// Create one with ``Publisher/sink(receiveCompletion:receiveValue:)``.
    /// `cancel()` is thread-safe and idempotent; the closures are released when the sink
    /// itself is released (an in-flight delivery on another thread may still be using
    /// them when `cancel()` returns).
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable,
        CustomStringConvertible
    {
        /// The closure that receives values.
        public let receiveValue: (Input) -> Void
        /// The closure that receives the completion.
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        /// 0 awaiting a subscription, 1 subscribed, 2 terminal (completed or cancelled).
        private let status = Atomic<UInt8>(0)
        /// Written once before `status` becomes 1; afterwards only read and cleared by the
        /// single thread that moves `status` from 1 to 2.
        private var subscription: (any Subscription)?

        /// Creates a sink from two closures.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        /// `"Sink"`, as in Combine.
        public var description: String { "Sink" }

        /// Keeps the subscription and requests unlimited values; one arriving after the
        /// first, or after the end, is cancelled.
        public func receive(subscription: any Subscription) {
            guard status.load(ordering: .acquiring) == 0 else {
                subscription.cancel()
                return
            }
            self.subscription = subscription
            guard status.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
            else {
                // Cancelled while storing: the subscription is ours to cancel.
                self.subscription = nil
                subscription.cancel()
                return
            }
            subscription.request(.unlimited)
        }

        /// Passes `value` to `receiveValue`, unless the sink was cancelled (or completed):
        /// a value that an upstream had already started to send when another thread
        /// cancelled stops here.
        @inline(__always)
        public func receive(_ value: Input) -> Subscribers.Demand {
            guard status.load(ordering: .acquiring) != 2 else { return .none }
            receiveValue(value)
            return .none
        }

        /// Passes the completion to `receiveCompletion`, once.
        public func receive(completion: Subscribers.Completion<Failure>) {
            let previous = status.exchange(2, ordering: .acquiringAndReleasing)
            guard previous != 2 else { return }
            if previous == 1 { subscription = nil }
            receiveCompletion(completion)
        }

        /// Cancels the upstream subscription; idempotent and thread-safe.
        public func cancel() {
            let previous = status.exchange(2, ordering: .acquiringAndReleasing)
            guard previous == 1 else { return }
            let subscription = self.subscription
            self.subscription = nil
            subscription?.cancel()
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behavior, requesting unlimited values.
    ///
    /// ```swift
    /// let c = subject.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(
            receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber that receives each value of a publisher that cannot fail.
    ///
    /// ```swift
    /// let c = person.$firstName.sink { print($0) }
    /// ```
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
