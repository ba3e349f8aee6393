import Dispatch
import Synchronization

/// The subscriber behind every binding: it requests unlimited values and hands each one
/// to a ``BindingSink``'s owner, on the right thread, until cancelled, completed, or the
/// owner is gone (checked at each value, so a released owner ends the binding even when
/// its `subscriptions` were not the only thing holding it).
final class BindingSubscriber<Owner: BindingOwner, Input>: Subscriber, Cancellable, @unchecked Sendable {
    // `@unchecked Sendable`: `status`, `isolation` and `queued` are atomics; `subscription`
    // follows the same single-winner protocol as `Subscribers.Sink` (written once before
    // `status` becomes 1, then only touched by the thread that moves it from 1 to 2);
    // `sink` is immutable.

    typealias Failure = Never

    private let sink: BindingSink<Owner, Input>
    /// 0 awaiting a subscription, 1 subscribed, 2 ended.
    private let status = Atomic<UInt8>(0)
    private var subscription: (any Subscription)?
    /// For `.detect` sinks: 0 unknown, 1 runs anywhere, 2 isolated to the main actor.
    private let isolation = Atomic<UInt8>(0)
    /// Values sent to the main queue and not delivered yet: while there are any, a value
    /// sent on the main thread queues behind them, so that order holds.
    private let queued = Atomic<Int>(0)

    init(sink: BindingSink<Owner, Input>) {
        self.sink = sink
        if case .mainActor = sink.delivery { isolation.store(2, ordering: .relaxed) }
    }

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
        guard status.load(ordering: .relaxed) == 1 else { return .none }
        guard let owner = sink.owner else {
            cancel()
            return .none
        }
        if runsHere(owner) {
            sink.receiveValue(owner, input)
        } else {
            enqueueOnMain(Delivery(input))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        let previous = status.exchange(2, ordering: .acquiringAndReleasing)
        guard previous != 2 else { return }
        subscription = nil
        guard let receiveCompletion = sink.receiveCompletion, let owner = sink.owner else { return }
        if runsHere(owner) {
            receiveCompletion(owner)
        } else {
            enqueueOnMain(nil)
        }
    }

    func cancel() {
        let previous = status.exchange(2, ordering: .acquiringAndReleasing)
        guard previous == 1 else { return }
        let subscription = self.subscription
        self.subscription = nil
        subscription?.cancel()
    }

    /// Whether the sink may run on the current thread now.
    private func runsHere(_ owner: Owner) -> Bool {
        switch isolation.load(ordering: .relaxed) {
        case 1:
            return true
        case 2:
            return queued.load(ordering: .acquiring) == 0 && MainThread.isCurrent
        default:
            if MainThread.isCurrent { return queued.load(ordering: .acquiring) == 0 }
            // Off the main thread, a conformance isolated to the main actor does not
            // satisfy a dynamic cast: that tells the two kinds of owner apart, once.
            let anywhere = conformsHere(owner)
            isolation.store(anywhere ? 1 : 2, ordering: .relaxed)
            return anywhere
        }
    }

    /// Whether `owner`'s `BindingOwner` conformance can be used on this thread. Out of
    /// line and unoptimized on purpose: specialized for an `Owner` known to conform, `-O`
    /// folds the cast to `true` and loses the run-time check of the conformance's
    /// isolation, so that a main-actor owner was set off the main thread in release
    /// builds only (found by running the suite with `-c release`).
    @inline(never) @_optimize(none)
    private func conformsHere(_ owner: Any) -> Bool {
        owner is any BindingOwner
    }

    /// A value (or, with `nil`, the completion) on its way to the main queue.
    private struct Delivery: @unchecked Sendable {
        // `@unchecked Sendable`: the value is handed from the sending thread to the main
        // queue and only used there.
        let input: Input
        init(_ input: Input) { self.input = input }
    }

    private func enqueueOnMain(_ delivery: Delivery?) {
        queued.add(1, ordering: .acquiringAndReleasing)
        DispatchQueue.main.async { [self] in
            defer { queued.subtract(1, ordering: .acquiringAndReleasing) }
            guard let owner = sink.owner else { return }
            if let delivery {
                guard status.load(ordering: .relaxed) == 1 else { return }
                sink.receiveValue(owner, delivery.input)
            } else {
                sink.receiveCompletion?(owner)
            }
        }
    }
}

extension BindingSink {
    /// Subscribes a binding to `source` and stores it in the owner; a no-op (returning an
    /// inert cancellable) when the owner is already gone.
    func bind<Source: Publisher>(_ source: Source) -> AnyCancellable
    where Source.Output == Input, Source.Failure == Never {
        guard let owner else { return AnyCancellable {} }
        let subscriber = BindingSubscriber(sink: self)
        let cancellable = AnyCancellable(object: subscriber)
        owner.subscriptions.insert(cancellable)
        source.subscribe(subscriber)
        return cancellable
    }
}
