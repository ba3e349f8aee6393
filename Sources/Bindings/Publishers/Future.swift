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
        state.attach(subscription)
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
@usableFromInline
final class FutureState<Output, Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var result: Result<Output, Failure>?
    private var waiting: [any FutureWaiter<Output, Failure>] = []

    init() {}

    /// The promise: stores the first result and tells the subscriptions waiting.
    func fulfill(_ result: Result<Output, Failure>) {
        let waiting: [any FutureWaiter<Output, Failure>]? = lock.withLock {
            guard self.result == nil else { return nil }
            self.result = result
            let waiting = self.waiting
            self.waiting = []
            return waiting
        }
        for subscription in waiting ?? [] { subscription.fulfilled(with: result) }
    }

    /// A subscription that its subscriber holds now: told the result now if there is one,
    /// else when it comes.
    func attach(_ subscription: any FutureWaiter<Output, Failure>) {
        let result: Result<Output, Failure>? = lock.withLock {
            if let result = self.result { return result }
            waiting.append(subscription)
            return nil
        }
        if let result { subscription.fulfilled(with: result) }
    }

    /// A cancelled subscription stops waiting (and is released).
    func detach(_ subscription: AnyObject) {
        let removed: [any FutureWaiter<Output, Failure>] = lock.withLock {
            let removed = waiting.filter { $0 === subscription }
            waiting.removeAll { $0 === subscription }
            return removed
        }
        withExtendedLifetime(removed) {}
    }
}

/// What ``FutureState`` tells of its result.
protocol FutureWaiter<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error
    func fulfilled(with result: Result<Output, Failure>)
}

/// One subscriber's subscription to a ``Future``: delivers the value once the result is
/// there and the subscriber has asked, then `.finished`; a failure as soon as it is there.
final class FutureSubscription<Downstream: Subscriber>: Subscription, FutureWaiter, CustomStringConvertible {
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    // Guarded by `lock`; `downstream` is let go of once the subscription is over.
    private var state: FutureState<Output, Failure>?
    private var downstream: Downstream?
    private var demanded = false
    private var result: Result<Output, Failure>?
    /// Cancelled: set by `cancel()`, which may come from the subscriber's `receive(_:)`,
    /// after which the completion is not sent.
    private var cancelled = false

    init(state: FutureState<Output, Failure>, downstream: Downstream) {
        self.state = state
        self.downstream = downstream
    }

    var description: String { "Future" }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        demanded = true
        deliverIfReady()   // unlocks
    }

    func fulfilled(with result: Result<Output, Failure>) {
        lock.lock()
        self.result = result
        deliverIfReady()   // unlocks
    }

    func cancel() {
        let (state, downstream) = lock.withLock {
            cancelled = true
            return (self.state.take(), self.downstream.take())
        }
        state?.detach(self)
        withExtendedLifetime(downstream) {}
    }

    /// With `lock` held, which it gives up: delivers the result if it is there and may
    /// go (a value needs demand), once.
    private func deliverIfReady() {
        guard let result, downstream != nil else {
            lock.unlock()
            return
        }
        if case .success = result, !demanded {
            lock.unlock()
            return
        }
        let downstream = self.downstream.take()!
        state = nil
        lock.unlock()
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            // Unless the subscriber cancelled meanwhile (from `receive(_:)`): nothing after.
            if lock.withLock({ cancelled }) { return }
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }
}
