import Dispatch
import Synchronization

/// Delivers to a callback made on the main actor (a `sink` called from main-actor code,
/// such as a Swift 6 `main.swift` or a `@MainActor` view) on the main thread only:
/// directly when the value is sent there and nothing sent earlier is still on its way,
/// otherwise through the main queue, in order. The same rule as a main-actor binding's
/// (see `BindingSubscriber`).
///
/// A callback that Swift 6 inferred to be main-actor isolated checks its isolation when
/// it starts: called on another thread (a value set on a worker thread), it stopped the
/// program with no message. Values sent off the main thread now reach it later, on the
/// main queue, which must be serviced (`dispatchMain()`, or a run loop).
///
/// Cancellation: nothing runs after `cancel()` returns on the main thread (a value queued
/// before it is dropped); from another thread, a value the main thread is delivering at
/// that moment may still finish, as with any observer.
@usableFromInline
final class MainActorDelivery<Event>: @unchecked Sendable {
    // `@unchecked Sendable`: `receive`, and a caller's `here`, run on the main actor only
    // (`deliver` checks `MainThread.isCurrent`, or calls `receive` from a block on the
    // main queue); `queued` and `cancelled` are atomics.

    // Inlinable, as is the fast path of a delivery: made where `Event` is known, the
    // closures here and the delivery they run are specialized there. Run as generic code,
    // a delivery looked up generic metadata (`Event`, the handover) several times: about
    // 20 ns of a `sink`'s 51 ns on the main actor.
    @usableFromInline let receive: (Event) -> Void
    /// Events sent to the main queue and not yet delivered: while there are some, a
    /// newer one goes behind them, also when sent on the main thread.
    @usableFromInline let queued = Atomic<Int>(0)
    @usableFromInline let cancelled = Atomic<Bool>(false)

    @inlinable
    init(_ receive: @escaping (Event) -> Void) {
        self.receive = receive
    }

    /// A delivery to `receive` and the closure that delivers through it, for an
    /// observation that cancels it itself (see ``cancel()``). The closure holds the
    /// delivery: hold the delivery weakly, so that the callback goes with the closure.
    @inlinable
    static func make(_ receive: @escaping (Event) -> Void) -> (MainActorDelivery, (Event) -> Void) {
        let delivery = MainActorDelivery(receive)
        return (delivery, { event in delivery.deliver(event) })
    }

    /// Nothing more is delivered, from now on (what is queued is dropped).
    @usableFromInline
    func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// Subscribes through `subscribe` with a closure that delivers to `receive` as above,
    /// and returns the handle that cancels both.
    @inlinable
    static func sink(
        _ receive: @escaping (Event) -> Void, _ subscribe: (@escaping (Event) -> Void) -> AnyCancellable
    ) -> AnyCancellable {
        let delivery = MainActorDelivery(receive)
        // The subscription's closure holds the delivery, so that the callback goes with
        // the subscription (and with the model); the handle holds it weakly.
        let inner = subscribe { event in delivery.deliver(event) }
        return delivery.handle(cancelling: inner)
    }

    /// The handle of a ``sink(_:_:)``: cancels the delivery (held weakly) and `inner`.
    @usableFromInline
    func handle(cancelling inner: AnyCancellable) -> AnyCancellable {
        AnyCancellable.unchecked({ [weak self] in
            self?.cancelled.store(true, ordering: .releasing)
            inner.cancel()
        })
    }

    /// Delivers `event`: at once on the main actor, unless an earlier event is still
    /// queued; otherwise through the main queue.
    @inlinable
    func deliver(_ event: Event) {
        deliver(event) { receive(event) }
    }

    /// Runs `here` (the delivery of `event`, by the caller) if the event may be delivered
    /// at once, on the main actor; otherwise queues `event`, made only then, for
    /// `receive`. Nothing, once cancelled.
    @inlinable @inline(__always)
    func deliver(_ event: @autoclosure () -> Event, here: () -> Void) {
        if cancelled.load(ordering: .acquiring) { return }
        if queued.load(ordering: .acquiring) == 0, MainThread.isCurrent {
            here()
            return
        }
        enqueue(event())
    }

    /// An event handed from the sending thread to the main queue, used only there.
    private struct Handover: @unchecked Sendable {
        let event: Event
    }

    /// Sends `event` to `receive` through the main queue, behind the events queued before.
    @usableFromInline
    func enqueue(_ event: Event) {
        queued.add(1, ordering: .acquiringAndReleasing)
        let handover = Handover(event: event)
        DispatchQueue.main.async { [self] in
            defer { queued.subtract(1, ordering: .acquiringAndReleasing) }
            if !cancelled.load(ordering: .acquiring) { receive(handover.event) }
        }
    }
}

/// What the two-closure `sink` delivers through a ``MainActorDelivery``: its values and
/// its completion, in one order.
@usableFromInline
enum SinkEvent<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
}

/// A delivery to the callback's isolation (``MainActorDelivery``, ``ActorDelivery``) that
/// an observation's token stops (see `KeyValueObservation.invalidate()`).
@usableFromInline
protocol StoppableDelivery: AnyObject, Sendable {
    func cancel()
}

extension MainActorDelivery: StoppableDelivery {}
