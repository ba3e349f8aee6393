import Synchronization

/// Delivers to a callback made on an actor other than the main actor (a `sink` called in
/// an actor's method): on that actor, in order, through one task that runs there and
/// takes the events from a stream. No thread can enter an arbitrary actor synchronously,
/// so a value arrives asynchronously, also one sent by the actor itself: later, but
/// never on a thread where the callback would race with the actor.
///
/// Except while the subscription is being made (``subscribing(_:)``), on the actor: what
/// the subscription delivers then on that thread (the initial value of a `sink`, the
/// `.initial` change of `observe`) runs at once, before the call returns, as it does
/// everywhere else; unless an event already went into the stream, which nothing
/// overtakes.
///
/// Cancellation finishes the stream and cancels the task: nothing runs after `cancel()`
/// returns on the actor (events still in the stream are dropped). When the subscription
/// lets go of its closure (cancelled, or its model is gone), the delivery goes the same
/// way.
@usableFromInline
final class ActorDelivery<Event>: StoppableDelivery, @unchecked Sendable {
    // `@unchecked Sendable`: `continuation` is `Sendable` (the stream's), `state` is a
    // `let` of a class that documents its own. The events cross from the sending thread
    // to the actor in `Handover`s, used only there.

    /// An event handed from the sending thread to the actor, used only there.
    private struct Handover: @unchecked Sendable {
        let event: Event
    }

    /// What the task and the handle share.
    private final class State: @unchecked Sendable {
        // `@unchecked Sendable`: `cancelled` is atomic; `task` is set once, before the
        // handle that reads it (`cancel()`) is made.
        let cancelled = Atomic<Bool>(false)
        var task: Task<Void, Never>?
    }

    private let continuation: AsyncStream<Handover>.Continuation
    private let state = State()
    /// The callback, for the events it takes at once (see ``subscribing(_:)``).
    private let receive: (Event) -> Void
    /// The thread making the subscription, on the actor, while it does; 0 otherwise.
    /// Written only by that thread: another thread reads a value that is never its own
    /// identifier, whichever it sees.
    private let subscribingThread = Atomic<UInt>(0)
    /// Whether an event went into the stream: from then on every event does. Read and
    /// written by the subscription's deliveries, which its source makes one at a time.
    private let streamed = Atomic<Bool>(false)

    private init(continuation: AsyncStream<Handover>.Continuation, receive: @escaping (Event) -> Void) {
        self.continuation = continuation
        self.receive = receive
    }

    deinit {
        // Its subscription let go of it (cancelled, or its source is gone): what has not
        // run is dropped.
        state.cancelled.store(true, ordering: .releasing)
        continuation.finish()
    }

    /// A delivery on `isolation` to `receive`, and the closure that delivers through it
    /// (it holds the delivery: hold the delivery weakly).
    @usableFromInline
    static func make(
        on isolation: isolated (any Actor)?, _ receive: @escaping (Event) -> Void
    ) -> (ActorDelivery, (Event) -> Void) {
        let (stream, continuation) = AsyncStream<Handover>.makeStream()
        let delivery = ActorDelivery(continuation: continuation, receive: receive)
        let state = delivery.state
        // Isolated to `isolation` (it captures it): the callback runs on the actor.
        state.task = Task {
            _ = isolation
            for await handover in stream {
                if state.cancelled.load(ordering: .acquiring) { break }
                receive(handover.event)
            }
        }
        return (delivery, { event in delivery.deliver(event) })
    }

    /// Subscribes through `subscribe` with a closure that delivers to `receive` on
    /// `isolation`, and returns the handle that cancels both.
    @usableFromInline
    static func sink(
        on isolation: isolated (any Actor)?, _ receive: @escaping (Event) -> Void,
        _ subscribe: (@escaping (Event) -> Void) -> AnyCancellable
    ) -> AnyCancellable {
        let (delivery, deliver) = make(on: isolation, receive)
        let inner = delivery.subscribing { subscribe(deliver) }
        return AnyCancellable.unchecked { [weak delivery] in
            delivery?.cancel()
            inner.cancel()
        }
    }

    /// Makes the subscription with `body`, during which what this thread delivers runs at
    /// once. Called only on the actor that the callback was made on (the caller is
    /// isolated to it): the callback then runs there.
    @usableFromInline
    func subscribing<Result>(_ body: () -> Result) -> Result {
        subscribingThread.store(currentThreadID(), ordering: .relaxed)
        defer { subscribingThread.store(0, ordering: .relaxed) }
        return body()
    }

    private func deliver(_ event: Event) {
        if state.cancelled.load(ordering: .acquiring) { return }
        if subscribingThread.load(ordering: .relaxed) == currentThreadID(), !streamed.load(ordering: .relaxed) {
            receive(event)
            return
        }
        streamed.store(true, ordering: .relaxed)
        continuation.yield(Handover(event: event))
    }

    @usableFromInline
    func cancel() {
        state.cancelled.store(true, ordering: .releasing)
        continuation.finish()
        state.task?.cancel()
    }
}
