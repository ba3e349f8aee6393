import Synchronization

/// The state that the two directions of a two-way binding share (see
/// `TwoWayBinding.swift`): the no-echo guard, and what ends the binding.
///
/// No echo: the other direction's observer of a side skips the notification of a write
/// that the binding made to that side (``write(_:_:)``, ``isEcho(_:)``):
/// - Outside a batch, each direction counts the writes it makes to its target side, and
///   the other direction's observer of that side skips as many notifications as were
///   counted, one per write. A count, not a flag raised around the set: the notification
///   of a write may arrive after the set returns (a set made inside a callback is
///   delivered after the callback, and a set made while another thread delivers is
///   delivered by that thread), and each observer receives one property's notifications
///   in the order of the sets, so the notification skipped is the one of the write
///   counted. Every set notifies (equal values included), so each counted write is
///   matched by exactly one notification.
/// - In a batch (`batchChanges`, or a flush, where a callback's sets are held too), sets
///   of one property make one notification, so a count would leave a write unmatched and
///   take the user's next change for an echo. The write is marked instead: the batch
///   records which binding made the last set of the property (`BatchContext.writer`, for
///   the first set the write makes: a set nested in it, such as the side's `didSet`
///   correcting the value, is not the binding's), and the notification is an echo
///   exactly when that last set was this binding's write to this side. A user's set
///   after the binding's, in the same batch, is then carried over.
/// - The last change wins, in a batch too: in its flush, the change of one side is not
///   written to the other if the other was set later in the batch (``laterChange(of:)``);
///   that later change, delivered after, is written back instead, as it would have been
///   without the batch.
///
/// Lifetime: the forward direction's closures hold the link; the backward direction's
/// closures hold it weakly; the link holds the backward subscription. So the link, and
/// with it the backward subscription, goes the moment the forward binding is released:
/// when the right side deinitialises (its `subscriptions` end the forward binding), when
/// its `subscriptions` are emptied, or when the left side deinitialises (its channel lets
/// go of the forward observer, after calling its completion, which ends the link too).
@usableFromInline
final class TwoWayLink: Sendable {
    /// The two sides of a binding.
    @usableFromInline
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
    /// The link's number, never reused: its writes' marks in a batch are
    /// `number << 1` (to the left side) and `number << 1 | 1` (to the right).
    private let number: UInt
    /// The numbers given so far.
    private static let numbers = Atomic<UInt>(0)

    /// Whether a side's property was set, in the batch that this thread is flushing, after
    /// the change being delivered, by anything but this link's write (the `UInt`, its
    /// mark); `nil` for a side whose changes batches do not hold (a computed key path).
    @usableFromInline typealias LaterChange = @Sendable (BatchContext, UInt) -> Bool

    private let laterLeft: LaterChange?
    private let laterRight: LaterChange?

    @usableFromInline
    init(left: LaterChange?, right: LaterChange?) {
        number = Self.numbers.add(1, ordering: .relaxed).newValue
        laterLeft = left
        laterRight = right
    }

    /// The ``LaterChange`` of a side whose channel is `channel`: its batch entry waits in
    /// this thread's batch with a change newer than the one being delivered, and another
    /// writer. (The entry is touched only by the thread that sets the model, which is
    /// this one while it waits in its batch.)
    @usableFromInline
    static func laterChange<Value>(of channel: PropertyChannel<Value>?) -> LaterChange? {
        guard let channel, !channel.isDerived else { return nil }
        return { [weak channel] context, mark in
            guard let entry = channel?.batchEntry else { return false }
            return entry._withUnsafeGuaranteedRef { entry in
                entry.isWaiting && entry.flush == context.flush && entry.stamp > context.deliveringStamp
                    && entry.writer != mark
            }
        }
    }

    /// The mark of this link's writes to `side` in a batch (never 0, which no writer is).
    private func mark(_ side: Side) -> UInt {
        switch side {
        case .left: number << 1
        case .right: number << 1 | 1
        }
    }

    /// Whether the binding has ended: nothing is written any more.
    @usableFromInline var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Makes the binding's write to `side` (`set`): counted, or in a batch on this thread
    /// marked as this link's (see the type's comment).
    @usableFromInline
    func write(_ side: Side, _ set: () -> Void) {
        if let context = BatchContext.current {
            if context.flushing, (side == .left ? laterLeft : laterRight)?(context, mark(side)) == true {
                return   // a later change of `side` is on its way, and wins
            }
            let outer = context.writer
            context.writer = mark(side)
            defer { context.writer = outer }
            set()
            return
        }
        switch side {
        case .left: pendingLeft.add(1, ordering: .acquiringAndReleasing)
        case .right: pendingRight.add(1, ordering: .acquiringAndReleasing)
        }
        set()
    }

    /// Whether a notification of `side` is the echo of a write that ``write(_:_:)`` made:
    /// in a batch's flush, whether the last set of the change delivered was this link's
    /// write to `side`; otherwise whether a write to `side` was counted, which is then
    /// uncounted.
    @usableFromInline
    func isEcho(_ side: Side) -> Bool {
        if let context = BatchContext.current, context.flushing {
            return context.deliveringWriter == mark(side)
        }
        switch side {
        case .left: return Self.takeOne(pendingLeft)
        case .right: return Self.takeOne(pendingRight)
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
    @usableFromInline
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
    @usableFromInline
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
    @usableFromInline
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
@usableFromInline
final class TwoWayHandle: CancellationTarget {
    private weak let link: TwoWayLink?

    @usableFromInline
    init(_ link: TwoWayLink) {
        self.link = link
        super.init()
    }

    override func cancelFromHandle() {
        link?.end()
    }

    override func handleDeinitialized(_ handle: AnyCancellable) {}
}
