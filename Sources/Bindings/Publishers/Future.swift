/// A publisher that eventually produces a single value and then finishes, or fails, as
/// in Combine.
///
/// ```swift
/// let answer = Future<Int, Never> { promise in
///     DispatchQueue.global().async { promise(.success(42)) }
/// }
/// let c = answer.sink { print($0) }   // 42, when the work is done
/// ```
///
/// The closure runs at once, in `init`, once, however many subscribers attach; it is
/// given a promise to call with the result. Only the first call counts. Each subscriber
/// receives the result when it arrives (a value only once it has asked for one, then
/// `.finished`; a failure at once), or at once if it arrived before the subscriber
/// attached. The promise may be called on any thread.
public final class Future<Output, Failure: Error>: Publisher {
    /// Fulfils the future with a value or a failure; only the first call counts.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    @usableFromInline let state = FutureState<Output, Failure>()

    /// Creates a future and runs `attemptToFulfill` with its promise, now.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        let state = self.state
        attemptToFulfill { result in state.fulfill(result) }
    }

    /// Attaches `subscriber`: it gets the result as its demand allows, once there is one.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = FutureSubscription(state: state, downstream: subscriber)
        subscriber.receive(subscription: subscription)
        subscription.attach()
    }
}

// `@unchecked Sendable` when the output is: `state` is a `let` of a thread-safe type.
extension Future: @unchecked Sendable where Output: Sendable {}

/// The result of a ``Future`` and the subscriptions waiting for it.
///
/// `@unchecked Sendable`: every `var` is only touched with `lock` held; subscriptions are
/// told outside it. `Output` need not be `Sendable`, as with the subjects: the result is
/// handed from the promise's caller to the subscribers, as Combine's does (`Future` itself
/// is `Sendable` only when its output is).
///
/// Its code, and its subscriptions', runs generic (the future is subscribed to from
/// generic code), where an optional of a generic type, a `Result`, a tuple or an
/// existential of a protocol with primary associated types is looked up in the runtime's
/// metadata cache at each use. So the result is kept as a ``FutureResult``, whose types
/// are concrete, and the waiting subscriptions as ``FutureWaiter``s, a protocol with none.
@usableFromInline
final class FutureState<Output, Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var result: FutureResult?
    private var waiting: [any FutureWaiter] = []

    init() {}

    /// The promise: stores the first result and tells the subscriptions waiting.
    func fulfill(_ result: Result<Output, Failure>) {
        let stored: FutureResult
        switch result {
        case .success(let output): stored = .output(output)
        case .failure(let failure): stored = .failure(failure)
        }
        lock.lock()
        guard self.result == nil else {
            lock.unlock()
            return
        }
        self.result = stored
        var waiting: [any FutureWaiter] = []
        swap(&waiting, &self.waiting)
        lock.unlock()
        for subscription in waiting { subscription.fulfilled(with: stored) }
    }

    /// The result, if there is one; else `subscription` waits for it (told by
    /// ``FutureWaiter/fulfilled(with:)`` when it comes).
    ///
    /// Returned rather than told: the caller holds the subscription's lock, so that a
    /// `cancel()` on another thread either comes first (and nothing is attached) or
    /// finds the subscription in the list to remove.
    func resultOrWait(_ subscription: some FutureWaiter) -> FutureResult? {
        lock.lock()
        defer { lock.unlock() }
        if let result { return result }
        waiting.append(subscription)
        return nil
    }

    /// A cancelled subscription stops waiting (and is released).
    func detach(_ subscription: AnyObject) {
        lock.lock()
        let removed = waiting.filter { $0 === subscription }
        waiting.removeAll { $0 === subscription }
        lock.unlock()
        withExtendedLifetime(removed) {}
    }
}

/// A future's result, with concrete types: the output as `Any` (put in with its type, taken
/// out with a cast that cannot fail), or the failure.
enum FutureResult {
    case output(Any)
    case failure(any Error)
}

/// What ``FutureState`` tells of its result.
protocol FutureWaiter: AnyObject {
    func fulfilled(with result: FutureResult)
}

/// One subscriber's subscription to a ``Future``: delivers the value once the result is
/// there and the subscriber has asked, then `.finished`; a failure as soon as it is there.
final class FutureSubscription<Downstream: Subscriber>: Subscription, FutureWaiter, CustomStringConvertible {
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    // Guarded by `lock`; `state` and `downstream` are let go of once the subscription is
    // over. The downstream is boxed, so that taking it copies a reference (see
    // `FutureState`).
    private var state: FutureState<Output, Failure>?
    private var downstream: SubscriberBox<Downstream>?
    private var demanded = false
    private var result: FutureResult?
    /// Cancelled: set by `cancel()`, which may come from the subscriber's `receive(_:)`,
    /// after which the completion is not sent.
    private var cancelled = false

    init(state: FutureState<Output, Failure>, downstream: Downstream) {
        self.state = state
        self.downstream = SubscriberBox(downstream)
    }

    var description: String { "Future" }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        demanded = true
        deliverIfReady()   // unlocks
    }

    /// Joins the future once the subscriber holds this subscription: takes the result
    /// now if there is one, else waits for it. A subscriber that cancelled from
    /// `receive(subscription:)` is not attached: in the waiting list it would stay until
    /// the promise is called, which may be never.
    func attach() {
        lock.lock()
        // `state` is `nil` once cancelled (nothing can deliver before attaching).
        guard let state else {
            lock.unlock()
            return
        }
        // The future's lock inside this one: the future never takes a subscription's
        // lock with its own held (it tells its waiting list after unlocking).
        guard let result = state.resultOrWait(self) else {
            lock.unlock()
            return
        }
        self.result = result
        deliverIfReady()   // unlocks
    }

    func fulfilled(with result: FutureResult) {
        lock.lock()
        self.result = result
        deliverIfReady()   // unlocks
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let state = self.state
        let downstream = self.downstream
        self.state = nil
        self.downstream = nil
        lock.unlock()
        state?.detach(self)
        withExtendedLifetime(downstream) {}
    }

    /// With `lock` held, which it gives up: delivers the result if it is there and may
    /// go (a value needs demand), once.
    private func deliverIfReady() {
        guard let result, let box = downstream else {
            lock.unlock()
            return
        }
        if case .output = result, !demanded {
            lock.unlock()
            return
        }
        downstream = nil
        state = nil
        lock.unlock()
        let downstream = box.subscriber
        switch result {
        case .output(let output):
            // Cannot fail: the promise's `Result<Output, Failure>` put it there.
            _ = downstream.receive(output as! Output)
            // Unless the subscriber cancelled meanwhile (from `receive(_:)`): nothing after.
            lock.lock()
            let cancelled = self.cancelled
            lock.unlock()
            if cancelled { return }
            downstream.receive(completion: .finished)
        case .failure(let failure):
            downstream.receive(completion: .failure(failure as! Failure))
        }
    }
}
