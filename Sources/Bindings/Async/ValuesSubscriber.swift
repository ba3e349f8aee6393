/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: it turns
/// each `next()` into a demand of `.max(1)` and resumes the waiting task with the value,
/// the end of the sequence, or the failure.
///
/// `@unchecked Sendable`: the publisher's threads call the `Subscriber` methods, the
/// consuming task calls ``next(_:)``, and a task-cancellation handler calls `cancel()`
/// from any thread. Every stored `var` (`status`, `waiter`) is read and written only
/// with `lock` held, and the lock is released before calling out (requesting from or
/// cancelling the upstream subscription, resuming a continuation). A continuation is
/// resumed exactly once: whoever takes it out of `waiter` under the lock resumes it.
final class ValuesSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    /// What a `next()` receives.
    typealias Result = Swift.Result<Input?, Failure>

    /// Carries a result from the publisher's thread to the consuming task.
    ///
    /// `@unchecked Sendable` because `Input` need not be `Sendable`, as in Combine's
    /// `values`: a value passed to `receive(_:)` is handed to this subscriber, which hands
    /// it on to the one task waiting in `next()` and keeps no copy; resuming the
    /// continuation orders the publisher's writes before the task's reads. (A publisher
    /// that shares one non-`Sendable` object with other subscribers shares it with this
    /// task too, exactly as it would with a `sink` on another thread.)
    struct Delivery: @unchecked Sendable {
        let result: Result
    }

    private enum Status {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// The upstream completed while no `next()` was waiting.
        case completed(Subscribers.Completion<Failure>)
        /// Nothing more: the end was reported, or the subscription was cancelled.
        case finished
    }

    private let lock = Lock()
    /// Guarded by `lock`.
    private var status = Status.awaitingSubscription
    /// Guarded by `lock`: the task waiting in `next()`, which has one unit of demand out.
    private var waiter: UnsafeContinuation<Delivery, Never>?

    init() {}

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = status else {
            lock.unlock()
            subscription.cancel()
            return
        }
        status = .subscribed(subscription)
        // A `next()` that came before the subscription is still owed its demand.
        let owed = waiter != nil
        lock.unlock()
        if owed { subscription.request(.max(1)) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = status, let waiter else {
            // Only a publisher that ignores demand gets here.
            lock.unlock()
            return .none
        }
        self.waiter = nil
        lock.unlock()
        waiter.resume(returning: Delivery(result: .success(input)))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        switch status {
        case .awaitingSubscription, .subscribed: break
        case .completed, .finished:
            lock.unlock()
            return
        }
        guard let waiter else {
            status = .completed(completion)
            lock.unlock()
            return
        }
        status = .finished
        self.waiter = nil
        lock.unlock()
        waiter.resume(returning: Delivery(result: Self.end(completion)))
    }

    /// Cancels the subscription and ends the sequence: a waiting `next()` returns `nil`.
    func cancel() {
        lock.lock()
        let upstream: (any Subscription)?
        if case .subscribed(let subscription) = status { upstream = subscription } else { upstream = nil }
        status = .finished
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        upstream?.cancel()
        waiter?.resume(returning: Delivery(result: .success(nil)))
    }

    /// Registers the continuation of a `next()` and asks the upstream for one value, or
    /// resumes it at once when the sequence has ended.
    func next(_ continuation: UnsafeContinuation<Delivery, Never>) {
        lock.lock()
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if waiter != nil {
            fatalError("Bindings: next() was called on a publisher's values iterator while another next() was waiting; an async iterator serves one task at a time")
        }
        switch status {
        case .awaitingSubscription:
            waiter = continuation
            lock.unlock()
        case .subscribed(let subscription):
            waiter = continuation
            lock.unlock()
            subscription.request(.max(1))
        case .completed(let completion):
            status = .finished
            lock.unlock()
            continuation.resume(returning: Delivery(result: Self.end(completion)))
        case .finished:
            lock.unlock()
            continuation.resume(returning: Delivery(result: .success(nil)))
        }
    }

    /// Waits for the next result; cancelling the calling task cancels the subscription.
    func next(isolation actor: isolated (any Actor)?) async -> Result {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { self.next($0) }
        } onCancel: {
            self.cancel()
        }.result
    }

    private static func end(_ completion: Subscribers.Completion<Failure>) -> Result {
        switch completion {
        case .finished: .success(nil)
        case .failure(let error): .failure(error)
        }
    }
}

extension ValuesSubscriber {
    /// Owned by the iterator (and its copies) only, never by the publisher: when the
    /// last iterator goes away, for instance when a `for await` loop ends with `break`,
    /// the subscription is cancelled instead of being kept alive by the upstream.
    final class Handle: Sendable {
        let subscriber: ValuesSubscriber

        init(_ subscriber: ValuesSubscriber) { self.subscriber = subscriber }

        deinit { subscriber.cancel() }
    }
}
