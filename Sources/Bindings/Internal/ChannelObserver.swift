import Synchronization

/// One registration with a ``Channel``: the base class of every subscription that a
/// channel delivers to (subject conduits, key-value observations, bindings).
///
/// Subclasses override ``receive(_:)``. A channel calls it on the delivering thread, one
/// event at a time, never while holding a lock.
///
/// An observer is also what its `AnyCancellable` points at (a ``CancellationTarget``),
/// and it is made once per subscription, so its size counts: the one-byte fields and
/// `slot` share one word, which subclasses use too (`registration`, `optionBits`)
/// rather than adding words of their own.
@usableFromInline
class ChannelObserver<Event>: CancellationTarget {
    /// Set once the observer must get nothing more. Read by the delivering thread before
    /// each event, so that nothing is delivered after `cancel()` returns on that thread
    /// (and, from another thread, nothing after the event in flight).
    @usableFromInline
    final let cancelled = Atomic<Bool>(false)

    /// For subclasses that register and unregister once (``PropertyObserver``): where
    /// the registration is, as they define it.
    @usableFromInline
    final let registration = Atomic<UInt8>(0)

    /// For subclasses: constant bits fixed at creation (a ``PropertyObserver``'s options).
    @usableFromInline
    final let optionBits: UInt8

    /// The observer's index in its channel's slots, -1 when not in them; guarded by the
    /// channel's lock.
    ///
    /// `@exclusivity(unchecked)` here and on `joinedAfter`: the channel's lock orders
    /// these accesses, and dynamic enforcement measured ~40% of a notification.
    @exclusivity(unchecked) @usableFromInline
    final var slot: Int32 = -1

    /// The number of the last event queued before the observer joined: of the queued
    /// events, it only receives later ones (an event delivered at once reaches exactly the
    /// observers registered then). Written before the observer is visible to delivery.
    @exclusivity(unchecked) @usableFromInline
    final var joinedAfter: UInt64 = 0

    @usableFromInline
    init(optionBits: UInt8 = 0) {
        self.optionBits = optionBits
    }

    /// Receives one event. Must be overridden.
    @usableFromInline
    func receive(_ event: Event) {
        preconditionFailure("Bindings internal error: \(Self.self) does not override receive(_:)")
    }

    /// The channel has let go of the observer for good (it was removed, or the channel
    /// closed or went away): it will never be called again, so it can release what only
    /// deliveries use (the user's closures), at once rather than when the last reference
    /// to it goes. Called once, outside any lock, when no delivery to it is in flight.
    /// Default: nothing.
    @usableFromInline
    func detached() {}

    /// The channel is being destroyed (its source, a model or subject, is gone); the
    /// observer will get nothing more. Called once, outside any lock. Default: nothing.
    @usableFromInline
    func sourceDidEnd() {}

    /// Marks the observer cancelled; returns `true` for the call that did it (so that
    /// cleanup runs once however many threads cancel at once).
    @inlinable
    final func markCancelled() -> Bool {
        !cancelled.exchange(true, ordering: .acquiringAndReleasing)
    }

    @inlinable
    final var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Whether something other than the channel keeps this observer alive for as long as
    /// it is registered, and removes it before letting go: then the channel holds it
    /// without a retain, which spares a retain and a release per subscription.
    ///
    /// True of a ``ValueObserver`` (the `sink` of a property publisher): its one
    /// `AnyCancellable` holds it, and cancels (removes it) before releasing it. A
    /// removal that waits for a delivery in progress (deferred, or queued on the side)
    /// holds its own reference until it is applied, and the delivering loop reads the
    /// slots only while no removal can apply, so no delivery reaches a freed observer.
    @inlinable
    final var isKeptAliveByOwner: Bool { optionBits & ValueObserverFlag.bit != 0 }
}
