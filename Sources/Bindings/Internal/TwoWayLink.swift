import Synchronization

/// The state that the two directions of a two-way binding share (see
/// `TwoWayBinding.swift`): the no-echo guard, and what ends the binding.
///
/// No echo: each direction counts the writes it makes to its target side
/// (``willWrite(_:)``, just before the set) and the other direction's observer of that
/// side skips as many notifications as were counted (``isEcho(_:)``), one per write. A
/// count, not a flag raised around the set: the notification of a write may arrive after
/// the set returns (a set made inside a callback is delivered after the callback, and a
/// set made while another thread delivers is delivered by that thread), and each
/// observer receives one property's notifications in the order of the sets, so the
/// notification skipped is the one of the write counted. Every set notifies (equal
/// values included), so each counted write is matched by exactly one notification.
///
/// Lifetime: the forward direction's closures hold the link; the backward direction's
/// closures hold it weakly; the link holds the backward subscription. So the link, and
/// with it the backward subscription, goes the moment the forward binding is released:
/// when the right side deinitialises (its `subscriptions` end the forward binding), when
/// its `subscriptions` are emptied, or when the left side deinitialises (its channel lets
/// go of the forward observer, after calling its completion, which ends the link too).
final class TwoWayLink: Sendable {
    /// The two sides of a binding.
    enum Side {
        case left
        case right
    }

    /// What ends the binding: the forward binding's maker handle, the backward
    /// subscription, and the delivery that writes a main-actor left side.
    private struct Parts {
        var forward: AnyCancellable?
        var backward: AnyCancellable?
        var leftDelivery: (any StoppableDelivery)?
    }

    /// Writes made by the binding to each side whose notification its observer of that
    /// side has not received yet.
    private let pendingLeft = Atomic<Int>(0)
    private let pendingRight = Atomic<Int>(0)
    private let ended = Atomic<Bool>(false)
    /// Guarded by its own lock, which is never held while anything is cancelled.
    private let parts = Mutex(Parts())

    init() {}

    /// Whether the binding has ended: nothing is written any more.
    var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Counts a write that the binding is about to make to `side`.
    func willWrite(_ side: Side) {
        switch side {
        case .left: pendingLeft.add(1, ordering: .acquiringAndReleasing)
        case .right: pendingRight.add(1, ordering: .acquiringAndReleasing)
        }
    }

    /// Whether a notification of `side` is the echo of a write counted by
    /// ``willWrite(_:)``: if so, it is uncounted, and the caller skips it.
    func isEcho(_ side: Side) -> Bool {
        switch side {
        case .left: Self.takeOne(pendingLeft)
        case .right: Self.takeOne(pendingRight)
        }
    }

    /// Decrements `counter` if it is positive; whether it did.
    private static func takeOne(_ counter: borrowing Atomic<Int>) -> Bool {
        var pending = counter.load(ordering: .acquiring)
        while pending > 0 {
            let (exchanged, original) = counter.compareExchange(
                expected: pending, desired: pending - 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            pending = original
        }
        return false
    }

    /// Keeps the backward subscription and the left side's delivery, until the binding
    /// ends (at once if it already has).
    func attach(backward: AnyCancellable, leftDelivery: (any StoppableDelivery)?) {
        let attached = parts.withLock { parts -> Bool in
            guard !hasEnded else { return false }
            parts.backward = backward
            parts.leftDelivery = leftDelivery
            return true
        }
        if !attached {
            leftDelivery?.cancel()
            backward.cancel()
        }
    }

    /// Keeps the forward binding's handle, so that ``end()`` can cancel it (at once if the
    /// binding has already ended: its left side went while it was being made).
    func attach(forward: AnyCancellable) {
        let attached = parts.withLock { parts -> Bool in
            guard !hasEnded else { return false }
            parts.forward = forward
            return true
        }
        if !attached { forward.cancel() }
    }

    /// Ends the binding, from any thread: no write starts after this returns (one that a
    /// callback on another thread is making may finish), and both subscriptions are
    /// released. Idempotent.
    func end() {
        let taken = takeParts()
        taken.leftDelivery?.cancel()
        taken.backward?.cancel()
        taken.forward?.cancel()
    }

    deinit {
        // The forward binding is gone (it held the link): the rest goes with it.
        let taken = takeParts()
        taken.leftDelivery?.cancel()
        taken.backward?.cancel()
    }

    /// Marks the binding ended and takes what ends it, to cancel with the lock released.
    private func takeParts() -> Parts {
        ended.store(true, ordering: .releasing)
        return parts.withLock { parts in
            let taken = parts
            parts = Parts()
            return taken
        }
    }
}

/// The target of the cancellable that a two-way binding returns: cancelling it ends the
/// binding; dropping it ends nothing (the binding lives in the right side's
/// `subscriptions`, as a `<~` binding lives in its owner's). It holds the link weakly, so
/// that keeping it keeps nothing alive.
final class TwoWayHandle: CancellationTarget {
    private weak let link: TwoWayLink?

    init(_ link: TwoWayLink) {
        self.link = link
        super.init()
    }

    override func cancelFromHandle() {
        link?.end()
    }

    override func handleDeinitialized(_ handle: AnyCancellable) {}
}
