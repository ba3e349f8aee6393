/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: it turns
/// each `next()` into a demand of `.max(1)` and resumes a waiting task with the value,
/// the end of the sequence, or the failure.
///
/// Several tasks may wait in `next()` at once (copies of one iterator), as in Combine:
/// each has asked for one value, and values go to them in the order they asked. The
/// end reaches every waiting task (a failure goes to the first, the others see the end);
/// if nobody waits, the next `next()` gets it.
///
/// `@unchecked Sendable`: the publisher's threads call the `Subscriber` methods, the
/// consuming tasks call ``next(_:)``, and a task-cancellation handler calls `cancel()`
/// from any thread. Every stored `var` (`status`, `waiters`, `owed`) is read and written
/// only with `lock` held, and the lock is released before calling out (requesting from
/// or cancelling the upstream subscription, resuming a continuation). A continuation is
/// resumed exactly once: whoever takes it out of `waiters` under the lock resumes it.
final class ValuesSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    /// What a `next()` receives.
    typealias Result = Swift.Result<Input?, Failure>
    typealias Waiter = UnsafeContinuation<Delivery, Never>

    /// Carries a result from the publisher's thread to the consuming task.
    ///
    /// `@unchecked Sendable` because `Input` need not be `Sendable`, as in Combine's
    /// `values`: a value passed to `receive(_:)` is handed to this subscriber, which hands
    /// it on to the one task it resumes and keeps no copy; resuming the continuation
    /// orders the publisher's writes before the task's reads. (A publisher that shares
    /// one non-`Sendable` object with other subscribers shares it with this task too,
    /// exactly as it would with a `sink` on another thread.)
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
    /// Guarded by `lock`: the tasks waiting in `next()`, oldest first, each with one unit
    /// of demand out.
    private var waiters: [Waiter] = []
    /// Guarded by `lock`: demand asked for before the subscription arrived.
    private var owed = 0

    init() {}

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = status else {
            lock.unlock()
            subscription.cancel()
            return
        }
        status = .subscribed(subscription)
        // The `next()` calls that came before the subscription are still owed their demand.
        let owed = self.owed
        self.owed = 0
        lock.unlock()
        if owed > 0 { subscription.request(.max(owed)) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = status else {
            lock.unlock()
            return .none   // late: after the end or a cancel
        }
        guard !waiters.isEmpty else {
            lock.unlock()
            // `fatalError`, not `precondition`: the message must survive -O builds.
            fatalError("""
                Bindings: a publisher sent a value to a `values` iterator that had not asked for one: \
                the publisher ignores demand. Make it send only what `request(_:)` asked for (as \
                Combine's `values` requires), or read it with `sink` instead.
                """)
        }
        let waiter = waiters.removeFirst()
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
        guard !waiters.isEmpty else {
            status = .completed(completion)
            lock.unlock()
            return
        }
        status = .finished
        let waiting = waiters
        waiters = []
        lock.unlock()
        // The failure to the first task waiting; the end of the sequence to the others.
        waiting[0].resume(returning: Delivery(result: Self.end(completion)))
        for waiter in waiting.dropFirst() { waiter.resume(returning: Delivery(result: .success(nil))) }
    }

    /// Cancels the subscription and ends the sequence: every waiting `next()` returns `nil`.
    func cancel() {
        lock.lock()
        let upstream: (any Subscription)?
        if case .subscribed(let subscription) = status { upstream = subscription } else { upstream = nil }
        status = .finished
        let waiting = waiters
        waiters = []
        lock.unlock()
        upstream?.cancel()
        for waiter in waiting { waiter.resume(returning: Delivery(result: .success(nil))) }
    }

    /// Registers the continuation of a `next()` and asks the upstream for one value, or
    /// resumes it at once when the sequence has ended.
    func next(_ continuation: Waiter) {
        lock.lock()
        switch status {
        case .awaitingSubscription:
            waiters.append(continuation)
            owed += 1
            lock.unlock()
        case .subscribed(let subscription):
            waiters.append(continuation)
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
