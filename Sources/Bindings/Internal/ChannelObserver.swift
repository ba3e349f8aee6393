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

    /// Whether this observer is a ``PropertyValueReceiver``, to which a property channel
    /// gives a change's new value as it is (see ``PropertyChannel/call(_:_:objectHeld:)``).
    /// In the byte that `slot`'s alignment leaves free, so it costs no space.
    @usableFromInline
    final let isPropertyValueReceiver: Bool

    /// The observer's index in its channel's slots, -1 when not in them; guarded by the
    /// channel's lock.
    ///
    /// `@exclusivity(unchecked)` here and on `handle`: the channel's lock orders these
    /// accesses, and dynamic enforcement measured ~40% of a notification.
    @exclusivity(unchecked) @usableFromInline
    final var slot: Int32 = -1

    /// For an observer kept alive by its `AnyCancellable` (``isKeptAliveByOwner``): that
    /// handle, unretained, so that when the channel lets go of the observer without the
    /// handle asking (its source is gone) it takes the handle's reference over and the
    /// observer goes at once (see ``takeHandleReferences()``). Guarded by the
    /// channel's lock: set before the observer is registered, cleared under the lock by
    /// whichever comes first, the handle's cancellation (``Channel/remove(_:)``) or the
    /// channel's takeover; so while it is set, the handle has not finished cancelling and
    /// is alive.
    @exclusivity(unchecked) @usableFromInline
    final var handle: Unmanaged<AnyCancellable>?

    @usableFromInline
    init(optionBits: UInt8 = 0) {
        self.optionBits = optionBits
        isPropertyValueReceiver = false
    }

    /// For a ``PropertyValueReceiver``. (A separate initializer rather than a parameter:
    /// with one, every observer's creation measured 8 ns slower, `$x.sink` + `cancel()`
    /// 95 -> 103 ns.)
    @usableFromInline
    init(propertyValueReceiverWith optionBits: UInt8) {
        self.optionBits = optionBits
        isPropertyValueReceiver = true
    }

    /// Receives one event. Must be overridden.
    @usableFromInline
    func receive(_ event: Event) {
        preconditionFailure("Bindings internal error: \(Self.self) does not override receive(_:)")
    }

    /// Under the channel's lock, as the channel lets go of this observer without its
    /// handle asking (its source is gone): takes over the reference that `handle` holds,
    /// if it still does, and forgets it, so that the observer, and what its closure
    /// captures, go as soon as the caller releases it, while the handle lives on (and
    /// cancels nothing). Returns how many references were taken (0 or 1; a binding's
    /// observer has a second handle), which the caller releases after unlocking.
    ///
    /// Why the handle is still there to read: `handle` is cleared under this lock by the
    /// handle's own cancellation (``Channel/remove(_:)``) before the handle can go, and
    /// here, so a handle found here has not finished cancelling. Its `target` is
    /// exchanged, not loaded, so that exactly one of the two (this, or the handle's
    /// `cancel()` or deinit) gets the reference.
    @usableFromInline
    func takeHandleReferences() -> Int {
        guard let handle else { return 0 }
        self.handle = nil
        return Self.takeReference(from: handle, to: self) ? 1 : 0
    }

    /// Under the channel's lock: takes `handle`'s reference to `observer`, unless the
    /// handle is cancelling (it took it first, and releases it).
    @inlinable
    static func takeReference(from handle: Unmanaged<AnyCancellable>, to observer: ChannelObserver) -> Bool {
        let taken = handle._withUnsafeGuaranteedRef { $0.target.exchange(nil, ordering: .acquiringAndReleasing) }
        guard let taken else { return false }
        precondition(
            taken == UnsafeMutableRawPointer(Unmanaged.passUnretained(observer).toOpaque()),
            "Bindings internal error: an observer's handle points elsewhere")
        return true
    }

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
    /// `AnyCancellable` holds it, and cancels (removes it) before releasing it, or the
    /// channel takes that reference over (``handle``). A removal that waits for a
    /// delivery in progress (deferred) holds its own reference until it is applied, and
    /// the delivering loop reads the slots only while no removal can apply, so no
    /// delivery reaches a freed observer.
    @inlinable
    final var isKeptAliveByOwner: Bool { optionBits & ValueObserverFlag.bit != 0 }
}
