import Synchronization

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon
    /// subscription, as in Combine.
    ///
    /// Create one with ``Publisher/sink(isolation:receiveCompletion:receiveValue:)``.
    /// `cancel()` is thread-safe and idempotent. The closures, and what they capture, are
    /// released when the stream completes (after `receiveCompletion` has run) or when the
    /// sink is cancelled, as in Combine; if a closure is running then (on another thread,
    /// or the cancel comes from inside it), as soon as it returns.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable,
        CustomStringConvertible
    {
        /// The closure that receives values (a no-op once the sink completed or was
        /// cancelled).
        public var receiveValue: (Input) -> Void {
            guard enter() else { return { _ in } }
            defer { leave() }
            return bodies._withUnsafeGuaranteedRef { $0.receiveValue }
        }
        /// The closure that receives the completion (a no-op once the sink completed or
        /// was cancelled).
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            guard enter() else { return { _ in } }
            defer { leave() }
            return bodies._withUnsafeGuaranteedRef { $0.receiveCompletion }
        }

        /// The two closures, retained by hand (+1) until released once through
        /// ``activity``. Unmanaged, so that a value borrows the closure instead of
        /// retaining and releasing it, as reading a `var` would.
        private let bodies: Unmanaged<Bodies>
        /// Who uses ``bodies``, so that exactly one thread releases them, after the last
        /// use: the calls running (``SinkActivity/oneCall`` each; re-entrant ones too),
        /// whether the release was asked for (completion, cancel), and whether it was
        /// done. A use enters (one atomic add) and leaves (one atomic subtract); the
        /// release happens at the request if nobody is inside, else when the last one
        /// leaves.
        private let activity = Atomic<Int>(0)

        /// The closures, in a box of their own so that they can be let go of together.
        private final class Bodies {
            let receiveValue: (Input) -> Void
            let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
            init(_ receiveValue: @escaping (Input) -> Void,
                 _ receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void) {
                self.receiveValue = receiveValue
                self.receiveCompletion = receiveCompletion
            }
        }

        /// 0 awaiting a subscription, 1 subscribed, 2 terminal (completed or cancelled).
        private let status = Atomic<UInt8>(0)
        /// Written once before `status` becomes 1; afterwards only read and cleared by the
        /// single thread that moves `status` from 1 to 2.
        private var subscription: (any Subscription)?

        deinit {
            // Nobody else can use them now.
            if activity.load(ordering: .acquiring) & SinkActivity.released == 0 { bodies.release() }
        }

        /// Creates a sink from two closures.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            bodies = Unmanaged.passRetained(Bodies(receiveValue, receiveCompletion))
        }

        /// Enters a use of the closures; returns `false`, having left again, once their
        /// release was asked for.
        @inline(__always)
        private func enter() -> Bool {
            let before = activity.wrappingAdd(SinkActivity.oneCall, ordering: .acquiring).oldValue
            if before & SinkActivity.releaseRequested != 0 {
                leave()
                return false
            }
            return true
        }

        /// Leaves a use: the last one out after a request releases the closures.
        @inline(__always)
        private func leave() {
            let after = activity.wrappingSubtract(SinkActivity.oneCall, ordering: .releasing).newValue
            if after == SinkActivity.releaseRequested { releaseBodies() }
        }

        /// Asks for the closures' release: done now if nobody is using them.
        private func requestRelease() {
            let before = activity.bitwiseOr(SinkActivity.releaseRequested, ordering: .acquiringAndReleasing).oldValue
            if before == 0 { releaseBodies() }
        }

        /// Releases the closures, once: only the call that moves `activity` from
        /// "requested, nobody inside" to "released" does.
        private func releaseBodies() {
            let claimed = activity.compareExchange(
                expected: SinkActivity.releaseRequested,
                desired: SinkActivity.releaseRequested | SinkActivity.released,
                ordering: .acquiringAndReleasing
            ).exchanged
            if claimed { bodies.release() }
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
            guard status.load(ordering: .acquiring) != 2, enter() else { return .none }
            bodies._withUnsafeGuaranteedRef { $0.receiveValue(value) }
            leave()
            return .none
        }

        /// Passes the completion to `receiveCompletion`, once, then lets go of the
        /// closures (or, when the completion came from inside `receiveValue`, as that
        /// returns).
        public func receive(completion: Subscribers.Completion<Failure>) {
            let previous = status.exchange(2, ordering: .acquiringAndReleasing)
            guard previous != 2 else { return }
            if previous == 1 { subscription = nil }
            if enter() {
                bodies._withUnsafeGuaranteedRef { $0.receiveCompletion(completion) }
                leave()
            }
            requestRelease()
        }

        /// Cancels the upstream subscription and lets go of the closures (once any call
        /// of them under way returns); idempotent and thread-safe.
        public func cancel() {
            let previous = status.exchange(2, ordering: .acquiringAndReleasing)
            guard previous != 2 else { return }
            if previous == 1 {
                let subscription = self.subscription
                self.subscription = nil
                subscription?.cancel()
            }
            requestRelease()
        }
    }
}

/// The bits of `Subscribers.Sink`'s `activity` word.
private enum SinkActivity {
    /// The closures are to be released (completed or cancelled).
    static var releaseRequested: Int { 1 }
    /// They were released.
    static var released: Int { 2 }
    /// One call of them under way.
    static var oneCall: Int { 4 }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behavior, requesting unlimited values.
    ///
    /// ```swift
    /// let c = subject.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// Called from main-actor code (`isolation`, filled in for you), the closure runs on
    /// the main queue only: at once when the value is set there, otherwise through the
    /// main queue, in order. From another actor it runs on that actor, asynchronously, in
    /// order, but for what the subscription sends at once (a current value), which it
    /// gets before this returns. From nonisolated code it runs on the thread that sends.
    ///
    /// Inlinable, so that a main-actor delivery is specialized where the types are known
    /// (run as generic code, each value looked up generic metadata: 112 ns a value on the
    /// main actor, against 12 from nonisolated code).
    @inlinable
    public func sink(
        isolation: isolated (any Actor)? = #isolation,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        // Nonisolated code (the common case) subscribes the closures as they are; isolated
        // code through one delivery, so that the completion follows the values.
        if isolation == nil { return subscribeSink(receiveCompletion: receiveCompletion, receiveValue: receiveValue) }
        return CallerIsolation.sink(isolation, { (event: SinkEvent<Output, Failure>) in
            switch event {
            case .value(let value): receiveValue(value)
            case .completion(let completion): receiveCompletion(completion)
            }
        }, { deliver in
            subscribeSink(receiveCompletion: { deliver(.completion($0)) }, receiveValue: { deliver(.value($0)) })
        })
    }

    /// `sink(receiveCompletion:receiveValue:)`'s subscriber, on the sending thread.
    @usableFromInline
    func subscribeSink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(
            receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable.unchecked(wrapping: sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber that receives each value of a publisher that cannot fail.
    ///
    /// ```swift
    /// let c = person.$firstName.sink { print($0) }
    /// ```
    ///
    /// Inlinable: where the publisher's type is known, a chain of `map`, `filter` and
    /// `compactMap` on a property or subject becomes one closure on its channel (see
    /// `Publisher._fusedSink`), with the same values, order, lifetime and cancellation.
    ///
    /// Called from main-actor code (`isolation`, filled in for you), the closure runs on
    /// the main queue only: at once when the value is set there, otherwise through the
    /// main queue, in order. From another actor it runs on that actor, asynchronously, in
    /// order, but for what the subscription sends at once (a current value), which it
    /// gets before this returns. From nonisolated code it runs on the thread that sends.
    @inlinable
    public func sink(
        isolation: isolated (any Actor)? = #isolation, receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        CallerIsolation.sink(isolation, receiveValue) { sinkOnSendingThread($0) }
    }

    /// `sink(receiveValue:)` on the sending thread.
    @inlinable
    func sinkOnSendingThread(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        if let fused = _fusedSink(receiveValue) { return fused }
        return subscribeSink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

extension Subscribers.Sink: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// A mirror with no children, as in Combine.
    public var customMirror: Mirror { Mirror(self, children: EmptyCollection<Mirror.Child>()) }

    /// `"Sink"`, as in Combine.
    public var playgroundDescription: Any { description }
}
