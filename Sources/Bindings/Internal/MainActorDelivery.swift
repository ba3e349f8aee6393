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
    // `@unchecked Sendable`: `receive` is called on the main thread only (`deliver`
    // checks `MainThread.isCurrent`, or calls it from a block on the main queue);
    // `queued` and `cancelled` are atomics.

    private let receive: (Event) -> Void
    /// Events sent to the main queue and not yet delivered: while there are some, a
    /// newer one goes behind them, also when sent on the main thread.
    private let queued = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)

    private init(_ receive: @escaping (Event) -> Void) {
        self.receive = receive
    }

    /// A delivery to `receive` and the closure that delivers through it, for an
    /// observation that cancels it itself (see ``cancel()``). The closure holds the
    /// delivery: hold the delivery weakly, so that the callback goes with the closure.
    @usableFromInline
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
    @usableFromInline
    static func sink(
        _ receive: @escaping (Event) -> Void, _ subscribe: (@escaping (Event) -> Void) -> AnyCancellable
    ) -> AnyCancellable {
        let delivery = MainActorDelivery(receive)
        // The subscription's closure holds the delivery, so that the callback goes with
        // the subscription (and with the model); the handle holds it weakly.
        let inner = subscribe { event in delivery.deliver(event) }
        return AnyCancellable.unchecked({ [weak delivery] in
            delivery?.cancelled.store(true, ordering: .releasing)
            inner.cancel()
        })
    }

    /// An event handed from the sending thread to the main queue, used only there.
    private struct Handover: @unchecked Sendable {
        let event: Event
    }

    private func deliver(_ event: Event) {
        if cancelled.load(ordering: .acquiring) { return }
        if queued.load(ordering: .acquiring) == 0, MainThread.isCurrent {
            receive(event)
            return
        }
        queued.add(1, ordering: .acquiringAndReleasing)
        let handover = Handover(event: event)
        DispatchQueue.main.async { [self] in
            defer { queued.subtract(1, ordering: .acquiringAndReleasing) }
            if !cancelled.load(ordering: .acquiring) { receive(handover.event) }
        }
    }
}

/// Where a callback was made, as the `isolation` parameter of `sink` and `observe` tells.
@usableFromInline
enum CallerIsolation {
    /// Whether `isolation` is the main actor; `nil` (nonisolated code, the common case
    /// of a library's own code and of the benchmarks) is told apart with no look-up of
    /// `MainActor.shared`.
    @inlinable @inline(__always)
    static func isMainActor(_ isolation: (any Actor)?) -> Bool {
        guard let isolation else { return false }
        return isolation === MainActor.shared
    }
}

/// What the two-closure `sink` delivers through a ``MainActorDelivery``: its values and
/// its completion, in one order.
@usableFromInline
enum SinkEvent<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
}

/// A delivery to the main thread that an observation's token stops (see
/// `KeyValueObservation.invalidate()`).
@usableFromInline
protocol MainThreadDelivery: AnyObject, Sendable {
    func cancel()
}

extension MainActorDelivery: MainThreadDelivery {}

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
final class ActorDelivery<Event>: MainThreadDelivery, @unchecked Sendable {
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

extension CallerIsolation {
    /// `body`, a binding's closure, as it must be called: as it is when made in
    /// nonisolated or main-actor code (the binding machinery keeps a main-actor owner's
    /// closures on the main queue), and through an ``ActorDelivery`` on the actor it was
    /// made on otherwise. The owner travels to the actor weakly: a binding never keeps
    /// its owner alive.
    @usableFromInline
    static func onCallerActor<Target: AnyObject, Value>(
        _ isolation: isolated (any Actor)?, _ body: @escaping (Target, Value) -> Void
    ) -> (Target, Value) -> Void {
        guard isolation != nil, !CallerIsolation.isMainActor(isolation) else { return body }
        let (_, deliver) = ActorDelivery<(WeakReference<Target>, Value)>.make(on: isolation) { event in
            if let target = event.0.object { body(target, event.1) }
        }
        return { target, value in deliver((WeakReference(target), value)) }
    }
}

/// A binding's two closures, as one event stream (see
/// `CallerIsolation.onCallerActor(_:_:_:)`).
@usableFromInline
enum BindingEvent<Target: AnyObject, Value> {
    case value(WeakReference<Target>, Value)
    case completion(WeakReference<Target>)
}

extension CallerIsolation {
    /// A binding's value and completion closures, as they must be called (see
    /// ``onCallerActor(_:_:)``), through one delivery, so that the completion comes after
    /// the values on the actor too.
    @usableFromInline
    static func onCallerActor<Target: AnyObject, Value>(
        _ isolation: isolated (any Actor)?, _ receiveValue: @escaping (Target, Value) -> Void,
        _ receiveCompletion: @escaping (Target) -> Void
    ) -> ((Target, Value) -> Void, (Target) -> Void) {
        guard isolation != nil, !isMainActor(isolation) else { return (receiveValue, receiveCompletion) }
        let (_, deliver) = ActorDelivery<BindingEvent<Target, Value>>.make(on: isolation) { event in
            switch event {
            case .value(let target, let value): if let target = target.object { receiveValue(target, value) }
            case .completion(let target): if let target = target.object { receiveCompletion(target) }
            }
        }
        return (
            { target, value in deliver(.value(WeakReference(target), value)) },
            { target in deliver(.completion(WeakReference(target))) }
        )
    }
}
