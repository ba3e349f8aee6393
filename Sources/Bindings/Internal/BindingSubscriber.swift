import Dispatch
import Synchronization

/// The subscriber behind every binding: it requests unlimited values and hands each one
/// to a ``BindingSink``'s owner, on the right thread, until cancelled, completed, or the
/// owner is gone.
///
/// Lifetime: the owner's `subscriptions` hold the only strong ``AnyCancellable`` of the
/// binding (`lifetime`), so the binding ends the moment the owner deinitialises. What
/// `<~` returns is another cancellable (`handle`) that reaches this subscriber weakly and
/// that this subscriber keeps: the caller may drop it (the binding goes on) or keep it
/// (the binding still ends with its owner, and releases its closures at once). Its
/// `cancel()` takes the owner's cancellable's reference to this subscriber over
/// (``cancel()``), so that the subscriber, and what the sink's closures capture, go at
/// once, not with the owner: cancelling breaks a cycle through the closures.
final class BindingSubscriber<Owner: BindingOwner, Input>: CancellationTarget, Subscriber, Cancellable, @unchecked Sendable {
    // `@unchecked Sendable`:
    // - `status`, `queued`: atomics; `onMainActor`: a `let`.
    // - `subscription`: written before `status` goes 0 -> 1 (or cleared when that fails),
    //   then touched only by the one thread that moves `status` on from 1 (as in `Sink`).
    // - `handle`: written once, by `bind` before the subscriber is shared; never read.
    // - `ownersHandle`: a `Mutex`.
    // - `sink`: read by the upstream's calls, which come one at a time, and by main-queue
    //   blocks, which run in order; cleared once, after the last of those: by the thread
    //   delivering the completion when no block is queued (`queued` is 0, acquiring), else
    //   by the last block. Its closures, and the owner, run only where `onMainActor`
    //   allows (the main thread for a sink that may be main-actor isolated; see
    //   `BindingDelivery`).

    typealias Failure = Never

    /// The sink; `nil` once the binding has finished, so that what its closures capture
    /// is released then, while the owner (which keeps this subscriber) lives on.
    /// `@exclusivity(unchecked)`: ordered as the type's comment says; every value reads it.
    /// Boxed: this code runs generic (the upstream calls it through its `Subscriber`
    /// conformance), where copying the optional sink out retained and released each of
    /// its references (the owner's weak holder and two closures) for every value, and the
    /// box is one reference.
    @exclusivity(unchecked) private var sink: SinkBox?
    /// 0 awaiting a subscription, 1 subscribed, 2 finished (values already on their way
    /// to the main queue still arrive), 3 cancelled (nothing more arrives).
    private let status = Atomic<UInt8>(0)
    private var subscription: (any Subscription)?
    /// The sink only runs on the main thread (its `delivery` is `.mainActor`).
    private let onMainActor: Bool
    /// Values sent to the main queue and not delivered yet: while there are any, a value
    /// sent on the main thread queues behind them, so that order holds.
    private let queued = Atomic<Int>(0)
    /// The caller's cancellable, kept here so that dropping it does not end the binding.
    private var handle: AnyCancellable?
    /// The owner's cancellable (in its `subscriptions`), unretained, until ``cancel()``
    /// takes its reference over or it is deinitialised: under the lock, so that it is
    /// alive while `cancel()` uses it (its deinit waits for the lock to clear it).
    private let ownersHandle = Mutex<Unmanaged<AnyCancellable>?>(nil)

    init(sink: BindingSink<Owner, Input>) {
        self.sink = SinkBox(sink)
        onMainActor = sink.delivery == .mainActor
        super.init()
    }

    override func cancelFromHandle() { cancel() }

    /// The owner's cancellable is going (with the owner): forgets it, and ends the binding.
    /// (It is the only cancellable whose target this is.)
    override func handleDeinitialized(_ handle: AnyCancellable) {
        ownersHandle.withLock { $0 = nil }
        cancel()
    }

    /// Notes the owner's cancellable, before it is stored (see ``cancel()``).
    func keep(ownersHandle handle: AnyCancellable) {
        ownersHandle.withLock { $0 = Unmanaged.passUnretained(handle) }
    }

    /// Makes the cancellable that the binding operators return (see the type's comment).
    func makeHandle() -> AnyCancellable {
        let handle = AnyCancellable.unchecked({ [weak self] in self?.cancel() })
        self.handle = handle
        return handle
    }

    /// Whether the binding has ended (finished or cancelled).
    var hasEnded: Bool { status.load(ordering: .acquiring) >= 2 }

    func receive(subscription: any Subscription) {
        guard status.load(ordering: .acquiring) == 0 else {
            subscription.cancel()
            return
        }
        self.subscription = subscription
        guard status.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else {
            self.subscription = nil
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard status.load(ordering: .relaxed) == 1, let box = sink else { return .none }
        guard let owner = box.sink.reference.object else {
            cancel()
            return .none
        }
        if runsHere {
            box.sink.receiveValue(owner, input)
        } else {
            enqueueValueOnMain(input)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        guard status.compareExchange(expected: 1, desired: 2, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        subscription = nil
        guard let owner = sink?.sink.owner else {
            finish()
            return
        }
        if runsHere {
            sink?.sink.receiveCompletion?(owner)
            finish()
        } else {
            enqueueOnMain(nil)
        }
    }

    /// The binding has delivered all it will: drop the sink (see `sink`). Values still
    /// queued for the main queue come first.
    private func finish() {
        if queued.load(ordering: .acquiring) == 0 {
            sink = nil
        } else {
            enqueueOnMain(nil)
        }
    }

    /// Ends the binding, and takes over the owner's cancellable's reference to this
    /// subscriber (unless that cancellable is cancelling or going, and so took it first):
    /// the owner's `subscriptions` then keeps an empty cancellable, and the subscriber,
    /// once its upstream lets go of it (a delivery under way keeps it until it returns),
    /// goes with its sink.
    func cancel() {
        let previous = status.exchange(3, ordering: .acquiringAndReleasing)
        if previous == 1 {
            let subscription = self.subscription
            self.subscription = nil
            subscription?.cancel()
        }
        let taken = ownersHandle.withLock { handle -> Bool in
            guard let owners = handle else { return false }
            handle = nil
            return owners._withUnsafeGuaranteedRef { $0.target.exchange(nil, ordering: .acquiringAndReleasing) } != nil
        }
        // The caller holds this subscriber for the call (the maker's cancellable, through
        // its weak reference; a delivery, through its upstream), so this is not the last.
        if taken { Unmanaged.passUnretained(self).release() }
    }

    /// Whether the sink may run on the current thread now: anywhere, or for a main-actor
    /// sink, on the main thread with no earlier value still waiting in the main queue.
    private var runsHere: Bool {
        @inline(__always) get { !onMainActor || (queued.load(ordering: .acquiring) == 0 && MainThread.isCurrent) }
    }

    /// The sink and its closures, held by reference (see `sink`).
    private final class SinkBox {
        let sink: BindingSink<Owner, Input>
        init(_ sink: BindingSink<Owner, Input>) { self.sink = sink }
    }

    /// A value (or, with `nil`, the completion) on its way to the main queue.
    private struct Delivery: @unchecked Sendable {
        // `@unchecked Sendable`: the value is handed from the sending thread to the main
        // queue and only used there.
        let input: Input
        init(_ input: Input) { self.input = input }
    }

    /// `enqueueOnMain` for a value. Out of line: code running generic looks up the
    /// metadata of each type a function uses when it is entered, and the delivery's type
    /// (and its optional's) would be looked up for every value, delivered here or not.
    @inline(never)
    private func enqueueValueOnMain(_ input: Input) {
        enqueueOnMain(Delivery(input))
    }

    private func enqueueOnMain(_ delivery: Delivery?) {
        queued.add(1, ordering: .acquiringAndReleasing)
        DispatchQueue.main.async { [self] in
            defer { queued.subtract(1, ordering: .acquiringAndReleasing) }
            // A cancelled binding delivers nothing more; a finished one still delivers
            // the values sent before its completion, then the completion.
            guard let delivery else {
                // The completion, always the last block: deliver it, then drop the sink.
                if status.load(ordering: .acquiring) != 3, let sink = sink?.sink, let owner = sink.owner {
                    sink.receiveCompletion?(owner)
                }
                sink = nil
                return
            }
            guard status.load(ordering: .acquiring) != 3, let sink = sink?.sink, let owner = sink.owner else { return }
            sink.receiveValue(owner, delivery.input)
        }
    }
}

extension BindingSink {
    /// Subscribes a binding to `source` and stores it in the owner; a no-op (returning an
    /// inert cancellable) when the owner is already gone. The owner's `subscriptions` is
    /// touched here, on the binding's thread, where the caller could use the owner's
    /// conformance: for a conformance isolated to the main actor, that is the main actor
    /// (a value that uses one stays in the main actor's region: SE-0470). A binding that has already
    /// ended when `subscribe` returns (a finite source such as `Just`) is not stored, so
    /// that binding finite publishers again and again does not grow the owner's storage.
    @usableFromInline
    func bind<Source: Publisher>(_ source: Source) -> AnyCancellable
    where Source.Output == Input, Source.Failure == Never {
        guard let owner else { return AnyCancellable.unchecked({}) }
        let subscriber = BindingSubscriber(sink: self)
        let handle = subscriber.makeHandle()
        source.subscribe(subscriber)
        // Made only when stored: dropping it would cancel, and a finished binding may
        // still have values on their way to the main queue.
        if !subscriber.hasEnded {
            let ownersHandle = AnyCancellable(target: subscriber)
            subscriber.keep(ownersHandle: ownersHandle)
            owner.subscriptions.insert(ownersHandle)
        }
        return handle
    }
}
