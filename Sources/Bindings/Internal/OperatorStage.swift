/// What one upstream value does to the stream of an operator built on ``StageInner``.
@usableFromInline
enum StageStep<Output, Failure: Error> {
    /// Deliver `output` to the subscriber, whose answer goes upstream.
    case publish(Output)
    /// Drop the value and ask upstream for one more in its place (`.max(1)`), so that a
    /// subscriber that asked for `n` values still gets `n`.
    case drop
    /// Cancel upstream and finish: the end of `prefix(while:)`.
    case finish
    /// Cancel upstream and fail with the error: a `try` closure threw.
    case fail(Failure)
}

/// The per-value logic of an operator that gives its subscriber a subscription of its
/// own and passes demand straight upstream: `tryMap`, `tryFilter`, `tryCompactMap`,
/// `tryRemoveDuplicates`, `tryScan`, `drop(while:)`, `prefix(while:)` and their `try`
/// variants, `encode` and `decode`. ``StageInner`` does the rest, once for all of them.
///
/// `step` may keep state (a running result, the last value): ``StageInner`` calls it one
/// value at a time, from the upstream's calls, which the subscriber contract serialises.
@usableFromInline
protocol OperatorStage {
    associatedtype Input
    associatedtype Output
    associatedtype UpstreamFailure: Error
    associatedtype Failure: Error

    /// Combine's name for the operator's subscription ("TryMap").
    static var name: String { get }

    /// Whether a request of zero stops the program, as it does in Combine's subscription
    /// of this operator.
    static var trapsOnZeroDemand: Bool { get }

    /// What `input` does to the stream. Runs user code: never called with a lock held.
    mutating func step(_ input: Input) -> StageStep<Output, Failure>

    /// The failure the subscriber receives for the upstream's `error`.
    static func failure(_ error: UpstreamFailure) -> Failure
}

/// The subscriber an ``OperatorStage`` operator attaches upstream, which is also the
/// subscription its own subscriber gets (as in Combine, where these operators print as
/// "TryMap", "PrefixWhile" and so on).
///
/// - Demand goes straight upstream; a dropped value asks for one more.
/// - A `.finish` or `.fail` step cancels upstream before the completion goes down; a
///   cancel cancels upstream. What a careless upstream sends after either is dropped.
/// - The subscriber and the upstream subscription are let go of at the completion or the
///   cancel, so a subscriber that keeps this subscription is not leaked.
/// - No lock is held while the stage or the subscriber runs, so both may re-enter
///   (request, cancel, send to the upstream) from their callbacks.
@usableFromInline
final class StageInner<Stage: OperatorStage, Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
where Downstream.Input == Stage.Output, Downstream.Failure == Stage.Failure {
    @usableFromInline typealias Input = Stage.Input
    @usableFromInline typealias Failure = Stage.UpstreamFailure

    /// Only touched by `receive(_:)`, which the upstream calls one value at a time (the
    /// subscriber contract); `@exclusivity(unchecked)` saves the dynamic exclusivity
    /// check that per-value path would pay.
    @exclusivity(unchecked) @usableFromInline var stage: Stage
    /// Guards `state`, `upstream` and `downstream`, which `request`/`cancel` (any thread)
    /// and the upstream's calls share. Held for a few loads and stores, never while
    /// calling out.
    @usableFromInline let lock = CompactLock()
    /// `awaitingSubscription`, `subscribed` or `terminal` (``StageState``).
    /// `@exclusivity(unchecked)`: `lock` orders every access.
    @exclusivity(unchecked) @usableFromInline var state: UInt8 = StageState.awaitingSubscription
    /// The upstream subscription, from its arrival until the end. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    /// The subscriber, until the end. Guarded by `lock`. Boxed (see `SubscriberBox`).
    @exclusivity(unchecked) @usableFromInline var downstream: SubscriberBox<Downstream>?

    @inlinable
    init(stage: Stage, downstream: Downstream) {
        self.stage = stage
        self.downstream = SubscriberBox(downstream)
    }

    @usableFromInline var description: String { Stage.name }

    @usableFromInline
    func receive(subscription: any Subscription) {
        lock.lock()
        guard state == StageState.awaitingSubscription else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = StageState.subscribed
        upstream = subscription
        let downstream = self.downstream
        lock.unlock()
        downstream?.subscriber.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Stage.Input) -> Subscribers.Demand {
        lock.lock()
        let state = self.state
        let downstream = self.downstream
        lock.unlock()
        guard state == StageState.subscribed, let downstream else {
            if state == StageState.awaitingSubscription { Self.eventBeforeSubscription("a value") }
            // After the end: a careless upstream's late value, dropped.
            return .none
        }
        switch stage.step(input) {
        case .publish(let output):
            return downstream.subscriber.receive(output)
        case .drop:
            return .max(1)
        case .finish:
            end(.finished)
        case .fail(let error):
            end(.failure(error))
        }
        return .none
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Stage.UpstreamFailure>) {
        lock.lock()
        guard state == StageState.subscribed else {
            let early = state == StageState.awaitingSubscription
            lock.unlock()
            if early { Self.eventBeforeSubscription("a completion") }
            return
        }
        state = StageState.terminal
        let upstream = self.upstream.take()
        let downstream = self.downstream.take()
        lock.unlock()
        // Released here, not under the lock: a deinit may run user code.
        withExtendedLifetime(upstream) {}
        downstream?.subscriber.receive(completion: completion.mapError(Stage.failure))
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        if Stage.trapsOnZeroDemand { demand.assertNonZero() }
        lock.lock()
        let upstream = state == StageState.subscribed ? self.upstream : nil
        lock.unlock()
        upstream?.request(demand)
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        state = StageState.terminal
        let upstream = self.upstream.take()
        let downstream = self.downstream.take()
        lock.unlock()
        upstream?.cancel()
        withExtendedLifetime(downstream) {}
    }

    /// Ends the stream from a value (a `.finish` or `.fail` step): cancels upstream, then
    /// completes, unless a cancel or the completion came first.
    @usableFromInline
    func end(_ completion: Subscribers.Completion<Stage.Failure>) {
        lock.lock()
        guard state == StageState.subscribed else {
            lock.unlock()
            return
        }
        state = StageState.terminal
        let upstream = self.upstream.take()
        let downstream = self.downstream.take()
        lock.unlock()
        upstream?.cancel()
        downstream?.subscriber.receive(completion: completion)
    }

    /// Stops the program, naming the upstream's mistake, as Combine's subscriptions of
    /// these operators do. `fatalError`, not `precondition`: the message must survive -O
    /// builds.
    @usableFromInline
    static func eventBeforeSubscription(_ what: String) -> Never {
        fatalError(
            "Bindings: \(Stage.name) received \(what) before its subscription: the upstream publisher must call receive(subscription:) first")
    }
}

/// The states of a ``StageInner``.
@usableFromInline
enum StageState {
    @inlinable static var awaitingSubscription: UInt8 { 0 }
    @inlinable static var subscribed: UInt8 { 1 }
    @inlinable static var terminal: UInt8 { 2 }
}
