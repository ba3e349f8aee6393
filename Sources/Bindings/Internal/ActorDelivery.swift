import Synchronization

/// Delivers to a callback made on an actor other than the main actor (a `sink` called in
/// an actor's method): on that actor, in order, through one task that runs there and
/// takes the events from a stream. No thread can enter an arbitrary actor synchronously,
/// so every value arrives asynchronously, also one sent by the actor itself: later, but
/// never on a thread where the callback would race with the actor.
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

    private init(continuation: AsyncStream<Handover>.Continuation) {
        self.continuation = continuation
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
        let delivery = ActorDelivery(continuation: continuation)
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
        let inner = subscribe(deliver)
        return AnyCancellable.unchecked { [weak delivery] in
            delivery?.cancel()
            inner.cancel()
        }
    }

    private func deliver(_ event: Event) {
        if state.cancelled.load(ordering: .acquiring) { return }
        continuation.yield(Handover(event: event))
    }

    @usableFromInline
    func cancel() {
        state.cancelled.store(true, ordering: .releasing)
        continuation.finish()
        state.task?.cancel()
    }
}
