/// What one upstream value does to an operator built on ``ReduceInner``.
@usableFromInline
enum ReduceStep<Failure: Error> {
    /// Keep reducing.
    case more
    /// The result is known (`first()`, `contains`, a failed `allSatisfy`): cancel
    /// upstream, and publish the result on demand.
    case done
    /// Cancel upstream and fail with the error: a `try` closure threw.
    case fail(Failure)
}

/// The per-value logic of an operator that reduces its upstream to at most one value:
/// `reduce`, `count`, `min`/`max`, `allSatisfy`, `contains`, `first`, `last`, `collect()`
/// and their `try` variants. ``ReduceInner`` does the rest, once for all of them.
///
/// `step` and `takeResult` are called one at a time, from the upstream's calls, which
/// the subscriber contract serialises, so a stage keeps its running result unguarded.
@usableFromInline
protocol ReducingStage {
    associatedtype Input
    associatedtype Output
    associatedtype UpstreamFailure: Error
    associatedtype Failure: Error

    /// Combine's name for the operator's subscription ("Reduce").
    static var name: String { get }

    /// Takes in one value. Runs user code: never called with a lock held.
    mutating func step(_ input: Input) -> ReduceStep<Failure>

    /// The value to publish once the upstream finished or `step` said `.done`; `nil` to
    /// finish without one (`first()` of an empty stream).
    mutating func takeResult() -> Output?

    /// The failure the subscriber receives for the upstream's `error`.
    static func failure(_ error: UpstreamFailure) -> Failure
}

/// The subscriber a ``ReducingStage`` operator attaches upstream, which is also the
/// subscription its own subscriber gets, as in Combine.
///
/// - It asks upstream for `.unlimited` as soon as it subscribes, whatever its subscriber
///   asks; its one value waits for the subscriber's first request (of 1 or more: a
///   request of zero stops the program, as in Combine), then `.finished` follows.
/// - A result known early (`.done`) cancels upstream at once; so does a thrown error,
///   which fails the subscriber at once. An upstream failure goes down at once, and so
///   does the end of a stream with no result.
/// - After a cancel or the completion nothing more goes down, what a careless upstream
///   still sends is dropped, and the subscriber and the upstream subscription are let go
///   of (a subscriber that keeps this subscription is not leaked).
/// - No lock is held while the stage or the subscriber runs.
@usableFromInline
final class ReduceInner<Stage: ReducingStage, Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
where Downstream.Input == Stage.Output, Downstream.Failure == Stage.Failure {
    @usableFromInline typealias Input = Stage.Input
    @usableFromInline typealias Failure = Stage.UpstreamFailure

    /// Only touched by the upstream's calls (see ``ReducingStage``), which come one at a
    /// time; `@exclusivity(unchecked)` saves the per-value exclusivity check.
    @exclusivity(unchecked) @usableFromInline var stage: Stage
    /// Guards `state`, `requested`, `upstream`, `downstream` and `result`, which
    /// `request`/`cancel` (any thread) and the upstream's calls share. Never held while
    /// calling out.
    @usableFromInline let lock = CompactLock()
    /// One of ``ReduceState``. `@exclusivity(unchecked)`: `lock` orders every access.
    @exclusivity(unchecked) @usableFromInline var state: UInt8 = ReduceState.awaitingSubscription
    /// Whether the subscriber has asked for anything yet.
    @exclusivity(unchecked) @usableFromInline var requested = false
    /// The upstream subscription, while reducing.
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    /// The subscriber, until the completion or a cancel.
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    /// The result, while it waits for the subscriber's request.
    @exclusivity(unchecked) @usableFromInline var result: Stage.Output?

    @inlinable
    init(stage: Stage, downstream: Downstream) {
        self.stage = stage
        self.downstream = downstream
    }

    @usableFromInline var description: String { Stage.name }

    @usableFromInline
    func receive(subscription: any Subscription) {
        lock.lock()
        guard state == ReduceState.awaitingSubscription else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = ReduceState.reducing
        upstream = subscription
        let downstream = self.downstream
        lock.unlock()
        // The subscriber first, so that it has its subscription before the result, even
        // when the upstream delivers everything at once; then the demand upstream.
        downstream?.receive(subscription: self)
        lock.lock()
        let upstream = state == ReduceState.reducing ? self.upstream : nil
        lock.unlock()
        upstream?.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Stage.Input) -> Subscribers.Demand {
        lock.lock()
        let reducing = state == ReduceState.reducing
        lock.unlock()
        // Otherwise a careless upstream's late value (after a cancel or the end): dropped.
        guard reducing else { return .none }
        switch stage.step(input) {
        case .more:
            break
        case .done:
            conclude(cancellingUpstream: true)
        case .fail(let error):
            fail(error, cancellingUpstream: true)
        }
        // It asked for `.unlimited` already.
        return .none
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Stage.UpstreamFailure>) {
        switch completion {
        case .finished:
            conclude(cancellingUpstream: false)
        case .failure(let error):
            fail(Stage.failure(error), cancellingUpstream: false)
        }
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        switch state {
        case ReduceState.reducing:
            requested = true
            lock.unlock()
        case ReduceState.waitingForDemand:
            state = ReduceState.delivering
            let result = self.result.take()
            let downstream = self.downstream
            lock.unlock()
            if let downstream { deliver(result, to: downstream) }
        default:
            lock.unlock()
        }
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        let previous = state
        state = ReduceState.done
        let upstream = self.upstream.take()
        let downstream = self.downstream.take()
        let result = self.result.take()
        lock.unlock()
        if previous == ReduceState.reducing { upstream?.cancel() }
        withExtendedLifetime((downstream, result)) {}
    }

    /// The upstream finished, or the stage knows its result: publishes it now if the
    /// subscriber asked (or finishes, if there is none), else keeps it for the request.
    @usableFromInline
    func conclude(cancellingUpstream: Bool) {
        let value = stage.takeResult()
        lock.lock()
        guard state == ReduceState.reducing else {
            lock.unlock()
            return
        }
        let upstream = self.upstream.take()
        let downstream = self.downstream
        let now = value == nil || requested
        if now {
            state = ReduceState.delivering
        } else {
            state = ReduceState.waitingForDemand
            result = value
        }
        lock.unlock()
        if cancellingUpstream { upstream?.cancel() } else { withExtendedLifetime(upstream) {} }
        if now, let downstream { deliver(value, to: downstream) }
    }

    /// Sends the value, if any, then `.finished`, unless the subscriber cancelled while
    /// receiving the value.
    @usableFromInline
    func deliver(_ value: Stage.Output?, to downstream: Downstream) {
        if let value { _ = downstream.receive(value) }
        lock.lock()
        guard state == ReduceState.delivering else {
            lock.unlock()
            return
        }
        state = ReduceState.done
        let released = self.downstream.take()
        lock.unlock()
        withExtendedLifetime(released) {}
        downstream.receive(completion: .finished)
    }

    /// Fails the subscriber now, cancelling upstream if the failure is the stage's own.
    @usableFromInline
    func fail(_ error: Stage.Failure, cancellingUpstream: Bool) {
        lock.lock()
        guard state == ReduceState.reducing else {
            lock.unlock()
            return
        }
        state = ReduceState.done
        let upstream = self.upstream.take()
        let downstream = self.downstream.take()
        lock.unlock()
        if cancellingUpstream { upstream?.cancel() } else { withExtendedLifetime(upstream) {} }
        downstream?.receive(completion: .failure(error))
    }
}

/// The states of a ``ReduceInner``.
@usableFromInline
enum ReduceState {
    @inlinable static var awaitingSubscription: UInt8 { 0 }
    /// Subscribed, taking in values.
    @inlinable static var reducing: UInt8 { 1 }
    /// The result is known and waits for the subscriber's first request.
    @inlinable static var waitingForDemand: UInt8 { 2 }
    /// The result and `.finished` are on their way down.
    @inlinable static var delivering: UInt8 { 3 }
    /// Completed or cancelled: nothing more goes down.
    @inlinable static var done: UInt8 { 4 }
}
