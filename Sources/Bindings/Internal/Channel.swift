import CBindingsThreadLocal
import Synchronization

/// The delivery engine behind every subject and observed property: a list of observers
/// and a queue of events waiting to reach them.
///
/// Contract:
/// - Events reach every observer in the order they were sent, one at a time. An event
///   sent while another is being delivered (from inside a callback, or from another
///   thread) is queued and delivered by the thread that is already delivering, right
///   after the current one: nobody gets a newer event before an older one, and every
///   observer's last event is the last one sent ("never stale").
/// - No lock is held while user code runs, so callbacks may send, subscribe, cancel and
///   take locks of their own, and may hand the source to another thread and wait for it:
///   whatever that thread does (send, subscribe, cancel, look up the observers) takes the
///   lock only for a few instructions, and is queued for the delivering thread when it
///   must come after the current event.
/// - An observer added during a delivery gets only events sent after it joined; one
///   cancelled during a delivery gets nothing more (from another thread: nothing after
///   the event in flight) and is released right after the current event.
/// - Cost of a send: two atomic compare-and-swaps on the channel's state word (one to
///   become the deliverer, one to stop), plus a plain call per observer (observers are
///   stored unmanaged, so the loop does not retain or release them). With no observers,
///   the same two.
///
/// The lock is a bit of the state word, held only for short sections that never call
/// user code; a thread that does not get it after a short spin sleeps in the
/// ``ParkingLot`` until the holder gives it up.
///
/// Subclasses add state (``PropertyChannel``); every member here is `final`. This file has
/// the state and the lock; registration is in Channel+Registration.swift, delivery in
/// Channel+Delivery.swift.
@usableFromInline
class Channel<Event>: ChangeCount, @unchecked Sendable {
    // `@unchecked Sendable` (the lock: the `locked` bit of `state`, `lock()`/`unlock()`):
    // - `state`, `reachable`, `deliverer`: atomics.
    // - `capacity`, `sequence`, `pending`, `pendingHead`, `deferredAdds`, `deferredHead`,
    //   `deferredRemovals`, `isClosed`: only touched with the lock held.
    // - `slots`, `slotCount`, `liveCount`: written only with the lock held, and during a
    //   delivery only by the deliverer (others defer while `delivering` is set, and it
    //   applies that under the lock); read under the lock, or by the deliverer without it.
    // - `deinit` touches them without the lock: no other thread has a reference then.
    // `Event` need not be `Sendable`: a queued event is handed to the deliverer under the
    // lock; the public sources are `Sendable` only when their values are.
    // `@exclusivity(unchecked)` on every `var`: that lock (for the deliverer's unlocked
    // reads, the `delivering` bit) orders each access; dynamic checks measured ~40% of a
    // notification.

    /// The channel's lock and delivery flags in one word (see ``ChannelState``). While
    /// `locked` is set only the holder changes it (every other change is a
    /// compare-and-swap that expects `locked` clear), except that a waiter may add
    /// `parked`.
    @usableFromInline final let state = Atomic<UInt>(0)

    /// Registered observers, in registration order, each retained once by the channel
    /// (released outside the lock on removal), except those that their owner keeps alive
    /// until removed (``ChannelObserver/isKeptAliveByOwner``). A removed observer leaves
    /// a hole (`nil`) that is compacted away later, so that removal costs O(1) and order
    /// is kept.
    @exclusivity(unchecked) @usableFromInline
    final var slots: UnsafeMutablePointer<Unmanaged<ChannelObserver<Event>>?>
    @exclusivity(unchecked) @usableFromInline final var slotCount = 0
    @exclusivity(unchecked) @usableFromInline final var capacity: Int
    @exclusivity(unchecked) @usableFromInline final var liveCount = 0

    /// The observers a send could reach: registered, or waiting to be (deferred while a
    /// delivery runs). Written under the lock, read without it by
    /// ``sendIfObserved(_:calling:)``, so that a property whose observers have all left
    /// is set as cheaply as one never observed.
    @usableFromInline final let reachable = Atomic<Int>(0)

    /// The thread delivering to observers now, or 0: set by a deliverer before it calls
    /// any observer and cleared before it stops, so that a thread that reads its own
    /// identifier here is inside one of its own callbacks (a registration made there gets
    /// its initial event at once). A thread only ever finds its own identifier here while
    /// it delivers: others store theirs or 0.
    @usableFromInline final let deliverer = Atomic<UInt>(0)
    /// Numbers the queued events, so that an observer registered while events wait in
    /// the queue joins only after them. Only queued events take a number: an event
    /// delivered at once reaches exactly the observers in `slots`.
    @exclusivity(unchecked) @usableFromInline final var sequence: UInt64 = 0
    /// The count of changes (``ChangeCount/version``) when the last event was queued, or
    /// sent at once under the lock: a queued event whose send counted a change differs
    /// from it (``Pending/carriesChange``). Guarded by the lock.
    @exclusivity(unchecked) @usableFromInline final var versionAtLastSend: UInt = 0
    @exclusivity(unchecked) @usableFromInline final var pending: [Pending] = []
    @exclusivity(unchecked) @usableFromInline final var pendingHead = 0
    /// Registrations made during a delivery, applied by the delivering thread once the
    /// events queued before each have been delivered: in order from `deferredHead`
    /// (their `after` numbers never decrease, so only the first needs looking at).
    @exclusivity(unchecked) @usableFromInline final var deferredAdds: [DeferredAdd] = []
    @exclusivity(unchecked) @usableFromInline final var deferredHead = 0
    /// Removals made during a delivery, applied by the delivering thread after the current
    /// event. Each entry holds the observer until then.
    @exclusivity(unchecked) @usableFromInline final var deferredRemovals: [ChannelObserver<Event>] = []

    /// Observers to tell that the source is gone (`sourceDidEnd()`), which went away
    /// while another thread delivered: the deliverer tells them after the current event.
    @exclusivity(unchecked) @usableFromInline final var deferredEnds: [ChannelObserver<Event>] = []

    /// Under the lock: whether registrations, removals or ends wait for the deliverer.
    @inlinable
    final var hasDeferred: Bool {
        deferredHead < deferredAdds.count || !deferredRemovals.isEmpty || !deferredEnds.isEmpty
    }

    /// The registrations still deferred.
    @inlinable
    final var waitingToJoin: ArraySlice<DeferredAdd> { deferredAdds[deferredHead...] }

    /// Set by ``removeAll()``: the source is gone, and an observer still waiting to join
    /// (deferred during a delivery) ends instead of joining. Guarded by the lock.
    @exclusivity(unchecked) @usableFromInline final var isClosed = false

    /// A queued event; `target` set means it is for that observer only (its initial value).
    @usableFromInline
    struct Pending {
        @usableFromInline let sequence: UInt64
        @usableFromInline let event: Event
        @usableFromInline let target: ChannelObserver<Event>?
        /// Sent by the delivering thread from inside one of its own callbacks (a set made
        /// by an observer of the property), not by another thread.
        @usableFromInline let isReentrant: Bool
        /// Its send counted a change of the source (a new value, not a completion or a
        /// prior notice), for sources that count their changes under the lock.
        @usableFromInline let carriesChange: Bool

        @inlinable
        init(
            sequence: UInt64, event: Event, target: ChannelObserver<Event>?, isReentrant: Bool = false,
            carriesChange: Bool = false
        ) {
            self.sequence = sequence
            self.event = event
            self.target = target
            self.isReentrant = isReentrant
            self.carriesChange = carriesChange
        }
    }

    /// How many events sent from inside the channel's own callbacks one delivery drains in
    /// a row before it stops the program as a cycle that never settles (see
    /// ``stopRunawayCycle()``): far more than any change that settles makes (an observer
    /// that counts a property down sets it once per step), and reached in well under a
    /// second by one that does not.
    @inlinable static var runawayLimit: Int { 100_000 }

    /// What a message names the channel by: the property's name where known.
    @usableFromInline
    var nameForMessages: String { "a subject or observable value" }

    /// A delivery drained ``runawayLimit`` events in a row, each sent from inside a
    /// callback of the one before: a cycle of bindings or observers through this channel
    /// that never settles. Every set notifies, equal values included (as KVO), so such a
    /// cycle would run forever, at full speed; it stops the program with a message
    /// instead, as a runaway `autorun` does.
    @usableFromInline @inline(never)
    func stopRunawayCycle() -> Never {
        fatalError(
            "Bindings: \(nameForMessages) was changed again from inside its own delivery "
                + "\(Self.runawayLimit) times in a row: a cycle of bindings or observers that never "
                + "settles (a property bound to itself, `a <~ b` with `b <~ a`, a ring of two-way "
                + "bindings, or an observer that always sets what it observes, even to an equal "
                + "value, since every set notifies). Break the cycle: bind in one direction, use "
                + "`<~>` for two sides that must stay equal, or set only when the value differs.")
    }

    /// A registration that waits until every event numbered up to `after` is delivered.
    @usableFromInline
    struct DeferredAdd {
        @usableFromInline let observer: ChannelObserver<Event>
        @usableFromInline let after: UInt64

        @inlinable
        init(_ observer: ChannelObserver<Event>, after: UInt64) {
            self.observer = observer
            self.after = after
        }
    }

    @inlinable
    override init() {
        capacity = 2
        slots = .allocate(capacity: 2)
        super.init()
    }

    /// The channel is going away with observers still registered (a subject's observers
    /// do not hold it): each hears `sourceDidEnd()` and is released.
    deinit {
        for index in 0..<slotCount {
            guard let unmanaged = slots[index] else { continue }
            let observer = unmanaged.takeUnretainedValue()
            observer.slot = -1
            if !observer.cancelled.exchange(true, ordering: .relaxed) {
                observer.sourceDidEnd()
            }
            if !observer.isKeptAliveByOwner { unmanaged.release() }
        }
        slots.deallocate()
    }

    /// The number of registered observers.
    final var observerCount: Int { withLock { liveCount } }

    // MARK: The lock

    /// Takes the channel's lock: short critical sections that never call user code.
    /// Not recursive.
    @inlinable @inline(__always)
    final func lock() {
        if state.compareExchange(expected: 0, desired: ChannelState.locked, ordering: .acquiring).exchanged { return }
        lockSlow()
    }

    /// The lock is held, or a delivery is on: spin briefly, then sleep in the
    /// ``ParkingLot`` until the holder gives the lock up.
    @usableFromInline
    final func lockSlow() {
        var spins = 0
        while true {
            let current = state.load(ordering: .relaxed)
            if current & ChannelState.locked == 0 {
                // Free (a delivery may be on: the lock is independent of it).
                if state.compareExchange(expected: current, desired: current | ChannelState.locked, ordering: .acquiring).exchanged {
                    return
                }
                continue
            }
            if spins < 64 {
                spins += 1
                continue
            }
            // Held for longer than a short section takes (its holder was preempted):
            // sleep until the holder's unlock wakes this thread.
            if current & ChannelState.parked == 0,
               !state.compareExchange(expected: current, desired: current | ChannelState.parked, ordering: .relaxed).exchanged {
                continue
            }
            ParkingLot.park(on: parkingKey) {
                let now = state.load(ordering: .relaxed)
                return now & ChannelState.locked != 0 && now & ChannelState.parked != 0
            }
            spins = 0
        }
    }

    /// Gives up the lock. `work` marks that something was queued or deferred for the
    /// thread that is delivering (only while one is).
    @inlinable @inline(__always)
    final func unlock(work: Bool = false) {
        // Only the holder changes `state` while it is locked, except for `parked`: the
        // exchange takes that bit off too, and says whether to wake anyone.
        let bits = state.load(ordering: .relaxed) & ~(ChannelState.locked | ChannelState.parked)
        let previous = state.exchange(work ? bits | ChannelState.work : bits, ordering: .releasing)
        if previous & ChannelState.parked != 0 { ParkingLot.unparkAll(on: parkingKey) }
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inlinable @inline(__always)
    final func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Where waiters for this channel's lock sleep in the ``ParkingLot``.
    @inlinable
    final var parkingKey: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    /// Under the lock: whether a thread is delivering.
    @inlinable @inline(__always)
    final var isDelivering: Bool { state.load(ordering: .relaxed) & ChannelState.delivering != 0 }

    /// Under the lock, not delivering: become the deliverer and give up the lock in one
    /// exchange.
    @inlinable @inline(__always)
    final func unlockBecomingDeliverer() {
        deliverer.store(currentThreadID(), ordering: .relaxed)
        let previous = state.exchange(ChannelState.delivering, ordering: .releasing)
        if previous & ChannelState.parked != 0 { ParkingLot.unparkAll(on: parkingKey) }
    }
}

/// The bits of a ``Channel``'s `state` word.
@usableFromInline
enum ChannelState {
    /// A thread holds the lock.
    @inlinable static var locked: UInt { 1 }
    /// A thread is delivering: it alone writes `slots`, and reads them unlocked.
    @inlinable static var delivering: UInt { 2 }
    /// While delivering: events were queued or registrations deferred, so the
    /// deliverer must take the lock before it stops (its compare-and-swap back to 0
    /// fails).
    @inlinable static var work: UInt { 4 }
    /// While locked: a thread sleeps in the ``ParkingLot`` waiting for the lock, and the
    /// unlock must wake it.
    @inlinable static var parked: UInt { 8 }
}

/// An identifier of the current thread, cheap to read (no call, no lock), never 0, and
/// unique among the threads alive: the address of the thread's state in
/// `CBindingsThreadLocal` (`pthread_self` was a call through the PLT, on every set).
@inlinable @inline(__always)
func currentThreadID() -> UInt {
    UInt(bindings_thread_id())
}
