/// A publisher that exposes a method for outside callers to publish elements, as in
/// Combine.
///
/// Bindings' subjects deliver in send order to every subscriber: a value sent while
/// another is being delivered (from inside a subscriber, or from another thread) is
/// queued and delivered right after it, by the thread already delivering. So no
/// subscriber ever receives an older value after a newer one. (Combine delivers a nested
/// send depth-first, which leaves later subscribers with a stale value.)
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscribers.
    func send(_ value: Output)
    /// Sends a completion signal to the subscribers; later sends are ignored.
    func send(completion: Subscribers.Completion<Failure>)
    /// Provides this subject with an upstream subscription, requesting unlimited values.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends a void value to the subscribers.
    public func send() { send(()) }
}

extension Publisher {
    /// Attaches `subject` to this publisher: the subject republishes every value and the
    /// completion. Returns a cancellable that ends the connection.
    ///
    /// ```swift
    /// let relay = PassthroughSubject<Int, Never>()
    /// let c = Just(1).subscribe(relay)
    /// ```
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
    where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject)
        subscribe(subscriber)
        return AnyCancellable.unchecked(wrapping: subscriber)
    }
}

/// Forwards a publisher's events into a subject.
///
/// It holds the subject strongly until the connection ends (cancel or completion), as
/// Combine does: a relay subject that only its subscribers and the connection reference
/// keeps relaying. (Only the subject's own state is shared with its subscriptions, not the
/// subject object, so a weak reference here would let the relay die while its
/// subscribers still wait for values.)
///
/// The subject is given this object as its subscription, not the upstream's, as in
/// Combine: a subject keeps every subscription it is given, for as long as it lives, and
/// this one lets go of the upstream's when the connection ends (a `share()` that
/// reconnects, or `connect()` and `cancel()` over and over, kept every earlier upstream
/// subscription, and what each held).
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, Cancellable, CustomStringConvertible {
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    /// Guarded by `lock`; `nil` once the connection has ended.
    private var downstream: Downstream?
    /// Guarded by `lock`.
    private var upstream: (any Subscription)?

    init(_ subject: Downstream) { downstream = subject }

    /// As Combine's subject subscriber describes itself.
    var description: String { "Subject" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, let subject = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        subject.send(subscription: self)
    }

    /// The subject's demand, passed on while the connection lasts.
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstream }?.request(demand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { downstream }?.send(input)
        return .none
    }

    // Both ends are let go of after unlocking: the subject may be held only by this
    // connection, and its end cancels what it keeps, this object included (whose lock,
    // still held, would never be given up).

    func receive(completion: Subscribers.Completion<Failure>) {
        let (subject, finished) = lock.withLock { (downstream.take(), upstream.take()) }
        withExtendedLifetime(finished) {}
        subject?.send(completion: completion)
    }

    func cancel() {
        let (subscription, subject) = lock.withLock { (upstream.take(), downstream.take()) }
        subscription?.cancel()
        withExtendedLifetime(subject) {}
    }
}
