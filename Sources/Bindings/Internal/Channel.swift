import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
///   take locks of their own.
/// - An observer added during a delivery gets only events sent after it joined; one
///   cancelled during a delivery gets nothing more and is released right after it.
/// - Cost of a send: two atomic compare-and-swaps on the channel's state word (one to
///   become the deliverer, one to stop), plus a plain call per observer (observers are
///   stored unmanaged, so the loop does not retain or release them). With no observers,
///   the same two. An `ordered` channel stops with a plain store: one compare-and-swap.
///
/// ## Ordered channels
///
/// An `@Observed` property's channel is *ordered*: the model's isolation orders its sends
/// and registrations (each happens before the next, SPEC section 6); only removals
/// (`cancel()`, `invalidate()`, an owner's deinit) come from any thread at any time. So
/// while a delivery runs, only the delivering thread changes `state`, and it ends the
/// delivery with a plain store instead of a compare-and-swap (and starts it with one
/// compare-and-swap that takes the lock, then plain stores).
///
/// Another thread that meets a delivery does not touch `state`: a removal (the observer
/// is marked cancelled first, so nothing more reaches it), or a send or registration (from
/// a thread that a callback hands the model to, and waits for), is queued on the side
/// (`side`, under `sideLock`), and is applied by the delivering thread once its current
/// event is done, like the deferred work of its own callbacks. Nothing queued is left
/// behind:
/// - every exclusive section of an ordered channel (a delivery, or the lock held) ends
///   with its store to `state`, then a look at `sideCount` (with a compiler barrier in
///   between); if anything is queued, it takes the lock again and applies it
///   (``applySideQueue(all:)``: the end of a delivery, on the model's isolation, applies
///   everything; the end of a locked section, which may be a canceller's thread,
///   applies removals only, so that no user code runs there; sends and registrations
///   are queued only during a delivery, whose end sees them);
/// - the queuing thread, after queueing (a read-modify-write of `sideCount`), calls
///   ``AsymmetricFence/heavy()`` and looks at `state` again. Either the section it met has
///   ended and its store is visible (then the queuing thread applies the queue itself, if
///   it gets the lock; if someone else got it first, their section began after the
///   queueing, and its end sees it), or it has not ended, and then its look at
///   `sideCount` comes after the barrier, which comes after the queueing, and sees it.
/// A look-up of the observers (`snapshot()`, for `unbind`) that meets another thread's
/// delivery cannot wait for it and cannot be queued: it stops the program with a message
/// (``orderedMisuse()``). Where ``AsymmetricFence`` is not available, no channel is
/// ordered.
///
/// Subclasses add state (``PropertyChannel``); every member here is `final`.
@usableFromInline
class Channel<Event>: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property below is guarded by the lock that
    // `state` implements (`lock()`/`unlock()`), except `slots`, `slotCount` and
    // `liveCount`, which the delivering thread also reads without the lock while
    // `ChannelState.delivering` is set; during that time no other thread writes them (adds and
    // removals go to `deferred` and are applied by the delivering thread under the lock).
    // `@exclusivity(unchecked)`: the lock, not dynamic enforcement, orders these accesses.

    /// The channel's lock and delivery flags in one word (see ``ChannelState``). Every change to
    /// it is a compare-and-swap that expects `ChannelState.locked` clear, so the lock's holder is
    /// the only thread that can change it, and unlocks with a plain store.
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

    /// The delivering thread, so that a registration made from inside one of its
    /// callbacks gets its initial event at once. Written by the deliverer once it is one.
    @usableFromInline final let deliverer = Atomic<UInt>(0)
    /// Numbers the queued events, so that an observer registered while an event waits in
    /// the queue does not receive it. Only queued events take a number: an event
    /// delivered at once reaches exactly the observers in `slots`.
    @exclusivity(unchecked) @usableFromInline final var sequence: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline final var pending: [Pending] = []
    @exclusivity(unchecked) @usableFromInline final var pendingHead = 0
    @exclusivity(unchecked) @usableFromInline final var deferred: [DeferredChange] = []

    /// Set by ``removeAll()``: the source is gone, and an observer still waiting to join
    /// (deferred during a delivery) ends instead of joining. Guarded by the lock.
    @exclusivity(unchecked) @usableFromInline final var isClosed = false

    /// Whether sends and registrations are ordered by the source's isolation (see
    /// "Ordered channels" above). Fixed at creation.
    @usableFromInline final let ordered: Bool
    /// Requests queued by other threads during a delivery of an ordered channel (see
    /// "Ordered channels" above), in order; guarded by `sideLock`. `sideCount` counts
    /// them, so that the end of every exclusive section can look without `sideLock`.
    @exclusivity(unchecked) @usableFromInline final var side: [SideRequest] = []
    @usableFromInline final let sideLock = SpinLock()
    @usableFromInline final let sideCount = Atomic<Int>(0)
    /// How many of the requests in `side` are removals; guarded by `sideLock`.
    @exclusivity(unchecked) @usableFromInline final var sideRemovals = 0

    /// A queued event; `target` set means it is for that observer only (its initial value).
    @usableFromInline
    struct Pending {
        @usableFromInline let sequence: UInt64
        @usableFromInline let event: Event
        @usableFromInline let target: ChannelObserver<Event>?

        @inlinable
        init(sequence: UInt64, event: Event, target: ChannelObserver<Event>?) {
            self.sequence = sequence
            self.event = event
            self.target = target
        }
    }

    /// A request queued on the side of an ordered channel.
    @usableFromInline
    enum SideRequest {
        /// Remove this observer (already marked cancelled).
        case remove(ChannelObserver<Event>)
        /// Send this event.
        case send(Event)
        /// Register this observer, with its initial event if it asked for one.
        case add(ChannelObserver<Event>, initial: Event?)
    }

    @usableFromInline
    enum DeferredChange {
        case add(ChannelObserver<Event>)
        case remove(ChannelObserver<Event>)
    }

    /// `ordered`: see "Ordered channels" above; only where ``AsymmetricFence`` works.
    @inlinable
    init(ordered: Bool = false) {
        capacity = 2
        slots = .allocate(capacity: 2)
        self.ordered = ordered && AsymmetricFence.isAvailable
    }

    /// The source is gone: every observer hears `sourceDidEnd()` and is released.
    deinit {
        for index in 0..<slotCount {
            guard let unmanaged = slots[index] else { continue }
            let observer = unmanaged.takeUnretainedValue()
            if !observer.isKeptAliveByOwner { unmanaged.release() }
            observer.slot = -1
            if !observer.cancelled.exchange(true, ordering: .relaxed) {
                observer.sourceDidEnd()
            }
            observer.detached()
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

    /// For the operations of an ordered channel that another thread may make during a
    /// delivery: takes the lock and returns `true`, unless another thread is delivering,
    /// in which case it returns `false` and the caller queues its request on the side
    /// (see "Ordered channels" above).
    @inlinable @inline(__always)
    final func lockUnlessDeliveringElsewhere() -> Bool {
        if state.compareExchange(expected: 0, desired: ChannelState.locked, ordering: .acquiring).exchanged { return true }
        return lockUnlessDeliveringElsewhereSlow()
    }

    /// The lock is held, or a delivery is on: spin briefly, then yield the processor
    /// to whoever holds it.
    @usableFromInline
    final func lockSlow() {
        var attempts = 0
        while true {
            let current = state.load(ordering: .acquiring)
            if current & ChannelState.locked == 0 {
                // An ordered channel's delivery is changed by its own thread only.
                if ordered, current & ChannelState.delivering != 0,
                   deliverer.load(ordering: .relaxed) != currentThreadID() {
                    orderedMisuse()
                }
                if state.compareExchange(expected: current, desired: current | ChannelState.locked, ordering: .acquiring).exchanged {
                    return
                }
            }
            attempts += 1
            if attempts > 32 { sched_yield() }
        }
    }

    /// Gives up the lock. `work` marks that something was queued or deferred for the
    /// thread that is delivering (only while one is).
    @inlinable @inline(__always)
    final func unlock(work: Bool = false) {
        // Only the holder can change `state` while it is locked: a plain store will do.
        let bits = state.load(ordering: .relaxed) & ~ChannelState.locked
        let unlocked = work ? bits | ChannelState.work : bits
        state.store(unlocked, ordering: .releasing)
        // The end of an exclusive section of an ordered channel (see "Ordered channels").
        if unlocked == 0, ordered {
            AsymmetricFence.compilerBarrier()
            if sideCount.load(ordering: .acquiring) != 0 { applySideQueue(all: false) }
        }
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inlinable @inline(__always)
    final func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Under the lock: whether a thread is delivering.
    @inlinable @inline(__always)
    final var isDelivering: Bool { state.load(ordering: .relaxed) & ChannelState.delivering != 0 }

    /// Under the lock, not delivering: become the deliverer and give up the lock in one
    /// store.
    @inlinable @inline(__always)
    final func unlockBecomingDeliverer() {
        deliverer.store(currentThreadID(), ordering: .relaxed)
        state.store(ChannelState.delivering, ordering: .releasing)
    }

    // MARK: Registration

    /// Registers `observer`: it receives the events sent from now on.
    ///
    /// `accept` runs under the lock first; when it returns `false` nothing is registered
    /// and `add` returns `false` (a completed subject, a closed channel).
    @inlinable @discardableResult
    final func add(_ observer: ChannelObserver<Event>, accept: () -> Bool = { true }) -> Bool {
        if ordered {
            guard lockUnlessDeliveringElsewhere() else {
                // `accept` reads state that changes only where the model goes, which
                // cannot happen while it delivers a change.
                guard accept() else { return false }
                queueAddOnTheSide(observer, initial: nil)
                return true
            }
        } else {
            lock()
        }
        guard accept() else {
            unlock()
            return false
        }
        observer.joinedAfter = sequence
        countReachable(+1)
        if isDelivering {
            deferred.append(.add(observer))
            unlock(work: true)
        } else {
            insert(observer)
            unlock()
        }
        return true
    }

    /// Registers `observer` and delivers it the event that `initial` makes first; see
    /// ``add(_:accept:)``. `call` delivers the initial event when it is delivered here
    /// (see ``send(_:calling:)``). `initial` runs under the lock, so that what it reads is
    /// ordered with `send(_:accept:)`. The initial event is delivered before this
    /// returns, unless another thread is delivering at this moment, in which case that
    /// thread delivers it next, in order.
    ///
    /// `@inline(__always)`: inlined, its three closures are too; called, each was a
    /// closure context and a call (about 8 ns of a subscription).
    @inlinable @inline(__always) @discardableResult
    final func add(
        _ observer: ChannelObserver<Event>, initial: () -> Event, accept: () -> Bool = { true },
        calling call: (ChannelObserver<Event>, Event) -> Void = { observer, event in observer.receive(event) }
    ) -> Bool {
        if ordered {
            guard lockUnlessDeliveringElsewhere() else {
                // Made on a thread that the delivering one waits for: the model is this
                // thread's to read now.
                guard accept() else { return false }
                queueAddOnTheSide(observer, initial: initial())
                return true
            }
        } else {
            lock()
        }
        guard accept() else {
            unlock()
            return false
        }
        observer.joinedAfter = sequence
        countReachable(+1)
        let event = initial()
        if !isDelivering {
            // Become the deliverer, so that nothing reaches the observer before this.
            insert(observer)
            unlockBecomingDeliverer()
            if !observer.isCancelled { call(observer, event) }
            endDelivering()
        } else if deliverer.load(ordering: .relaxed) == currentThreadID() {
            // Re-entrant, from a callback on the delivering thread: deliver now; the
            // observer joins the list when the current event is done.
            deferred.append(.add(observer))
            unlock(work: true)
            if !observer.isCancelled { call(observer, event) }
        } else {
            deferred.append(.add(observer))
            pending.append(Pending(sequence: sequence, event: event, target: observer))
            unlock(work: true)
        }
        return true
    }

    /// Delivers the event that `current` makes (under the lock) to `observer` alone,
    /// ordered with every other delivery; used to re-send a current value on demand.
    @inlinable
    final func deliverCurrent(to observer: ChannelObserver<Event>, _ current: () -> Event?) {
        lock()
        guard let event = current() else {
            unlock()
            return
        }
        if !isDelivering {
            unlockBecomingDeliverer()
            if !observer.isCancelled { observer.receive(event) }
            endDelivering()
        } else {
            pending.append(Pending(sequence: sequence, event: event, target: observer))
            unlock(work: true)
        }
    }

    /// Removes `observer` if registered. Safe from any thread, inside callbacks, twice.
    /// `detach: false` skips `detached()` when the caller drops its own reference to
    /// the observer right after (what `detached()` releases goes with it then anyway);
    /// a removal deferred past a delivery detaches all the same.
    @inlinable
    final func remove(_ observer: ChannelObserver<Event>, detach: Bool = true) {
        observer.cancelled.store(true, ordering: .relaxed)
        if ordered {
            guard lockUnlessDeliveringElsewhere() else {
                queueRemovalOnTheSide(observer)
                return
            }
        } else {
            lock()
        }
        if isDelivering {
            deferred.append(.remove(observer))
            unlock(work: true)
            return
        }
        let taken = takeSlot(observer)
        unlock()
        if taken {
            if detach { observer.detached() }
            if !observer.isKeptAliveByOwner { Unmanaged.passUnretained(observer).release() }
        }
    }

    /// The registered observers, in order (for rare look-ups such as `unbind`).
    final func snapshot() -> [ChannelObserver<Event>] {
        lock()
        var observers: [ChannelObserver<Event>] = []
        for index in 0..<slotCount {
            if let unmanaged = slots[index] { observers.append(unmanaged.takeUnretainedValue()) }
        }
        for case .add(let observer) in deferred { observers.append(observer) }
        if ordered {
            sideLock.withLock { for case .add(let observer, _) in side { observers.append(observer) } }
        }
        unlock()
        return observers
    }

    /// Cancels and removes every observer, for good: the source of the events is gone.
    /// The caller tells each observer returned, outside any lock, and then, unless
    /// `whileDelivering`, calls its `detached()`. During a delivery (the source went away
    /// inside a callback), the removals are deferred until the current event is done,
    /// and `detached()` comes with them; observers waiting to join end then too.
    final func removeAll() -> (observers: [ChannelObserver<Event>], whileDelivering: Bool) {
        lock()
        isClosed = true
        let delivering = isDelivering
        var removed: [ChannelObserver<Event>] = []
        for index in 0..<slotCount {
            guard let unmanaged = slots[index] else { continue }
            let observer = unmanaged.takeUnretainedValue()
            observer.cancelled.store(true, ordering: .relaxed)
            if delivering {
                deferred.append(.remove(observer))
                removed.append(observer)
            } else {
                observer.slot = -1
                // The caller's reference: the channel's own, or a new one.
                if observer.isKeptAliveByOwner { removed.append(observer) } else { removed.append(unmanaged.takeRetainedValue()) }
                slots[index] = nil
            }
        }
        // What is queued on the side goes too: removals are done by now, sends have no one
        // left to reach, and observers waiting to join end with the rest.
        var sideDropped: [SideRequest] = []
        if delivering {
            for case .add(let observer) in deferred where !observer.isCancelled {
                observer.cancelled.store(true, ordering: .relaxed)
                removed.append(observer)
            }
        } else {
            slotCount = 0
            liveCount = 0
            reachable.store(0, ordering: .relaxed)
            if ordered {
                sideLock.lock()
                swap(&sideDropped, &side)
                sideCount.store(0, ordering: .releasing)
                sideRemovals = 0
                sideLock.unlock()
                for case .add(let observer, _) in sideDropped {
                    observer.cancelled.store(true, ordering: .relaxed)
                    removed.append(observer)
                }
            }
        }
        unlock(work: delivering && !deferred.isEmpty)
        sideDropped = []
        return (removed, delivering)
    }

    /// Under the lock: adjusts ``reachable``.
    @inlinable @inline(__always)
    final func countReachable(_ change: Int) {
        reachable.store(reachable.load(ordering: .relaxed) &+ change, ordering: .relaxed)
    }

    /// Under the lock, during a delivery: queues `event` for the deliverer, numbered.
    @inlinable
    final func queueEvent(_ event: Event) {
        sequence &+= 1
        pending.append(Pending(sequence: sequence, event: event, target: nil))
    }

    /// Under the lock, during a delivery: registers `observer` once the current event is
    /// done, with its initial event (if any) queued in order with the others.
    @inlinable
    final func queueJoin(_ observer: ChannelObserver<Event>, initial: Event?) {
        observer.joinedAfter = sequence
        countReachable(+1)
        deferred.append(.add(observer))
        if let initial { pending.append(Pending(sequence: sequence, event: initial, target: observer)) }
    }

    /// Appends under the lock; the channel takes one retain (see `slots`).
    @inlinable
    final func insert(_ observer: ChannelObserver<Event>) {
        if slotCount == capacity { grow() }
        observer.slot = Int32(truncatingIfNeeded: slotCount)
        slots[slotCount] = observer.isKeptAliveByOwner ? Unmanaged.passUnretained(observer) : Unmanaged.passRetained(observer)
        slotCount += 1
        liveCount += 1
    }

    /// Removes under the lock; returns a retain for the caller to release after
    /// unlocking (releasing may run deinit code that re-enters the library): the
    /// channel's own, or for an observer kept alive by its owner, a new one.
    @inlinable
    final func take(_ observer: ChannelObserver<Event>) -> Unmanaged<ChannelObserver<Event>>? {
        guard takeSlot(observer) else { return nil }
        return observer.isKeptAliveByOwner ? Unmanaged.passRetained(observer) : Unmanaged.passUnretained(observer)
    }

    /// Removes under the lock; returns whether `observer` was registered. The channel's
    /// retain, if it held one (see `slots`), is the caller's to release after unlocking.
    @inlinable
    final func takeSlot(_ observer: ChannelObserver<Event>) -> Bool {
        let index = Int(observer.slot)
        guard index >= 0, index < slotCount, let unmanaged = slots[index],
              unmanaged.toOpaque() == Unmanaged.passUnretained(observer).toOpaque()
        else { return false }
        slots[index] = nil
        observer.slot = -1
        liveCount -= 1
        countReachable(-1)
        if index == slotCount - 1 {
            slotCount -= 1
            while slotCount > 0, slots[slotCount - 1] == nil { slotCount -= 1 }
        } else if liveCount * 2 < slotCount, slotCount > 8 {
            compact()
        }
        return true
    }

    /// Closes the holes, keeping order. Amortised O(1) per removal: it runs only when
    /// more than half the slots are holes.
    @usableFromInline
    final func compact() {
        var write = 0
        for read in 0..<slotCount {
            if let unmanaged = slots[read] {
                unmanaged.takeUnretainedValue().slot = Int32(truncatingIfNeeded: write)
                slots[write] = unmanaged
                write += 1
            }
        }
        for index in write..<slotCount { slots[index] = nil }
        slotCount = write
    }

    @usableFromInline
    final func grow() {
        // An observer keeps its index in 32 bits.
        precondition(capacity < Int(Int32.max) / 2, "Bindings: more than a billion observers of one value")
        let newCapacity = capacity * 2
        let newSlots = UnsafeMutablePointer<Unmanaged<ChannelObserver<Event>>?>.allocate(capacity: newCapacity)
        newSlots.moveInitialize(from: slots, count: slotCount)
        slots.deallocate()
        slots = newSlots
        capacity = newCapacity
    }

    // MARK: Delivery

    /// Sends `event` to every observer (see the type's contract).
    ///
    /// The fast path takes no lock: one compare-and-swap makes this thread the
    /// deliverer if nobody holds the lock or delivers, and one more ends the delivery if
    /// nothing was queued or deferred meanwhile.
    @inlinable
    final func send(_ event: Event) {
        send(event) { observer, event in observer.receive(event) }
    }

    /// ``send(_:calling:)``, skipped when no observer is reachable: no atomic
    /// read-modify-write at all then.
    ///
    /// Only for sources whose sends and registrations happen on one isolation domain
    /// (an `@Observed` property and what derives from it, which the model's isolation
    /// orders): there the count read here is never older than a registration that the
    /// send must reach, including one made from inside a callback of this channel.
    @inlinable @inline(__always)
    final func sendIfObserved(_ event: Event, calling call: (ChannelObserver<Event>, Event) -> Void) {
        if reachable.load(ordering: .relaxed) == 0 { return }
        send(event, calling: call)
    }

    /// Sends `event`, calling `call` for each observer instead of its `receive(_:)` on
    /// the fast path: a subclass that knows its observers' concrete types passes code
    /// specialized for them (see `PropertyChannel.sendChange`). Queued events, delivered
    /// later by ``finishDelivering()``, go through `receive(_:)`.
    @inlinable
    final func send(_ event: Event, calling call: (ChannelObserver<Event>, Event) -> Void) {
        if ordered {
            // One compare-and-swap takes the lock; then, holding it, this thread names
            // itself and turns the lock into a delivery with plain stores, so that no
            // other thread can overwrite the name of a delivery under way.
            guard state.compareExchange(expected: 0, desired: ChannelState.locked, ordering: .acquiring).exchanged else {
                send(event) { true }
                return
            }
            unlockBecomingDeliverer()
            if liveCount != 0 { deliver(event, sequence: .max, calling: call) }
            endDelivering()
            return
        }
        guard state.compareExchange(expected: 0, desired: ChannelState.delivering, ordering: .acquiring).exchanged else {
            send(event) { true }
            return
        }
        if liveCount != 0 {
            deliverer.store(currentThreadID(), ordering: .relaxed)
            deliver(event, sequence: .max, calling: call)
        }
        endDelivering()
    }

    /// Sends `event` if `accept`, run under the lock, returns `true`; `accept` is where a
    /// subject updates its current value or records its completion, atomically with the
    /// event's place in the order.
    @inlinable
    final func send(_ event: Event, accept: () -> Bool) {
        if ordered {
            guard lockUnlessDeliveringElsewhere() else {
                guard accept() else { return }
                queueSendOnTheSide(event)
                return
            }
        } else {
            lock()
        }
        guard accept() else {
            unlock()
            return
        }
        if isDelivering {
            queueEvent(event)
            unlock(work: true)
            return
        }
        if liveCount == 0 {
            unlock()
            return
        }
        unlockBecomingDeliverer()
        deliver(event, sequence: .max)
        endDelivering()
    }

    /// Ends a delivery: the common case (nothing queued or deferred meanwhile, nobody
    /// holding the lock) in one compare-and-swap, the rest in ``finishDelivering()``.
    @inlinable
    final func endDelivering() {
        if ordered {
            // Nobody else changes `state` during an ordered channel's delivery, and this
            // thread's nested calls are done: if nothing was queued meanwhile, a plain
            // store ends it (see "Ordered channels").
            if state.load(ordering: .relaxed) == ChannelState.delivering {
                state.store(0, ordering: .releasing)
                AsymmetricFence.compilerBarrier()
                if sideCount.load(ordering: .acquiring) != 0 { applySideQueue(all: true) }
                return
            }
        } else if state.compareExchange(expected: ChannelState.delivering, desired: 0, ordering: .releasing).exchanged {
            return
        }
        finishDelivering()
    }

    /// Calls every registered observer that joined before the event numbered `sequence`
    /// (`.max` for an event delivered at once: all of them). Runs without the lock, only
    /// on the delivering thread, while no other thread writes `slots`.
    @inlinable
    final func deliver(_ event: Event, sequence: UInt64) {
        deliver(event, sequence: sequence) { observer, event in observer.receive(event) }
    }

    /// ``deliver(_:sequence:)``, calling `call` for each observer.
    @inlinable @inline(__always)
    final func deliver(_ event: Event, sequence: UInt64, calling call: (ChannelObserver<Event>, Event) -> Void) {
        let slots = self.slots
        let count = slotCount
        for index in 0..<count {
            guard let unmanaged = slots[index] else { continue }
            unmanaged._withUnsafeGuaranteedRef { observer in
                if observer.joinedAfter < sequence, !observer.isCancelled {
                    call(observer, event)
                }
            }
        }
    }

    /// Applies what was deferred and drains the queue, then ends the delivery.
    ///
    /// Whatever this drops (removed observers, delivered events) is released after the
    /// lock is given up, since a deinit may re-enter the library.
    @usableFromInline
    final func finishDelivering() {
        var released: [Unmanaged<ChannelObserver<Event>>] = []
        var changes: [DeferredChange] = []
        var delivered: [Pending] = []
        var sideRequests: [SideRequest] = []
        var endedLate: [(observer: ChannelObserver<Event>, tell: Bool)] = []
        while true {
            lock()
            if ordered, sideCount.load(ordering: .acquiring) != 0 {
                takeSideQueue(all: true, released: &released, requests: &sideRequests)
            }
            if !deferred.isEmpty {
                swap(&changes, &deferred)
                for change in changes {
                    switch change {
                    case .add(let observer):
                        if observer.slot >= 0 { break }
                        if isClosed {
                            // The source went away before it joined: it ends (told now,
                            // unless `removeAll()` returned it for that).
                            countReachable(-1)
                            endedLate.append((observer, !observer.cancelled.exchange(true, ordering: .relaxed)))
                        } else if observer.isCancelled {
                            countReachable(-1)
                        } else {
                            insert(observer)
                        }
                    case .remove(let observer):
                        if let unmanaged = take(observer) { released.append(unmanaged) }
                    }
                }
            }
            if pendingHead < pending.count {
                let next = pending[pendingHead]
                pendingHead += 1
                // Still delivering; `work` stays set while more is queued, so that the
                // swap in `endDelivering` cannot end the delivery early.
                state.store(ChannelState.delivering | (pendingHead < pending.count ? ChannelState.work : 0), ordering: .releasing)
                dropReleased(&released, &changes)
                sideRequests.removeAll(keepingCapacity: true)
                end(&endedLate)
                if let target = next.target {
                    if !target.isCancelled { target.receive(next.event) }
                } else {
                    deliver(next.event, sequence: next.sequence)
                }
                continue
            }
            if pendingHead > 0 {
                swap(&delivered, &pending)
                pendingHead = 0
            }
            // Nothing queued or deferred: stop delivering and unlock in one store.
            state.store(0, ordering: .releasing)
            if ordered {
                AsymmetricFence.compilerBarrier()
                let queued = sideCount.load(ordering: .acquiring) != 0
                dropReleased(&released, &changes)
                sideRequests = []
                end(&endedLate)
                if queued { applySideQueue(all: true) }
            } else {
                dropReleased(&released, &changes)
                end(&endedLate)
            }
            return
        }
    }

    /// Outside the lock: ends the observers that were to join a channel closed meanwhile.
    @usableFromInline
    final func end(_ endedLate: inout [(observer: ChannelObserver<Event>, tell: Bool)]) {
        if endedLate.isEmpty { return }
        for (observer, tell) in endedLate {
            if tell { observer.sourceDidEnd() }
            observer.detached()
        }
        endedLate.removeAll()
    }

    @inlinable
    final func dropReleased(_ released: inout [Unmanaged<ChannelObserver<Event>>], _ changes: inout [DeferredChange]) {
        if !released.isEmpty {
            for unmanaged in released {
                unmanaged._withUnsafeGuaranteedRef { $0.detached() }
                unmanaged.release()
            }
            released.removeAll(keepingCapacity: true)
        }
        if !changes.isEmpty { changes.removeAll(keepingCapacity: true) }
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
    /// deliverer must take the lock before it stops (its swap back to 0 fails).
    @inlinable static var work: UInt { 4 }
}

/// An identifier of the current thread, cheap to read (no allocation, no lock).
@inlinable @inline(__always)
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
