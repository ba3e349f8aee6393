import CBindingsThreadLocal
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
/// Subclasses add state (``PropertyChannel``); every member here is `final`.
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

        @inlinable
        init(sequence: UInt64, event: Event, target: ChannelObserver<Event>?) {
            self.sequence = sequence
            self.event = event
            self.target = target
        }
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

    // MARK: Registration

    /// Registers `observer`: it receives the events sent from now on.
    ///
    /// `accept` runs under the lock first; when it returns `false` nothing is registered
    /// and `add` returns `false` (a completed subject, a closed channel).
    @inlinable @discardableResult
    final func add(_ observer: ChannelObserver<Event>, accept: () -> Bool = { true }) -> Bool {
        guard lockForRegistration(accept) else { return false }
        if isDelivering {
            deferredAdds.append(DeferredAdd(observer, after: sequence))
            unlock(work: true)
        } else {
            insert(observer)
            unlock()
        }
        return true
    }

    /// Takes the lock for a registration: returns `false`, the lock given up again, if
    /// `accept` (run under it) refuses; otherwise counts the observer as reachable, and
    /// returns with the lock held.
    @inlinable @inline(__always)
    final func lockForRegistration(_ accept: () -> Bool) -> Bool {
        lock()
        guard accept() else {
            unlock()
            return false
        }
        countReachable(+1)
        return true
    }

    /// Under the lock, with no delivery under way: registers `observer` and has
    /// `deliver` give it its first event on this thread, as the deliverer, so that
    /// nothing sent meanwhile reaches it before; gives up the lock.
    @inlinable @inline(__always)
    final func insertDeliveringFirst(_ observer: ChannelObserver<Event>, _ deliver: () -> Void) {
        insert(observer)
        unlockBecomingDeliverer()
        if !observer.isCancelled { deliver() }
        deliverer.store(0, ordering: .relaxed)
        endDelivering()
    }

    /// Registers `observer` and delivers it the event that `initial` makes first; see
    /// ``add(_:accept:)``. `call` delivers the initial event (see ``send(_:calling:)``).
    /// `initial` runs under the lock, so that what it reads is ordered with
    /// `send(_:accept:)`. The initial event is delivered on this thread before this
    /// returns, as KVO's `.initial` is.
    ///
    /// `@inline(__always)`: inlined, its three closures are too; called, each was a
    /// closure context and a call (about 8 ns of a subscription).
    @inlinable @inline(__always) @discardableResult
    final func add(
        _ observer: ChannelObserver<Event>, initial: () -> Event, accept: () -> Bool = { true },
        calling call: (ChannelObserver<Event>, Event) -> Void = { observer, event in observer.receive(event) }
    ) -> Bool {
        guard lockForRegistration(accept) else { return false }
        let event = initial()
        if !isDelivering {
            insertDeliveringFirst(observer) { call(observer, event) }
        } else if deliverer.load(ordering: .relaxed) == currentThreadID() {
            // Re-entrant, from a callback on the delivering thread: deliver now; the
            // observer joins the list once the events queued before it are delivered
            // (the initial value, read now, is newer than they are).
            deferredAdds.append(DeferredAdd(observer, after: sequence))
            unlock(work: true)
            if !observer.isCancelled { call(observer, event) }
        } else {
            // Another thread is delivering: one that a callback handed the source to, and
            // that waits for this one, or one delivering its own new observer's initial
            // value (several threads observe at once). Either way no event can be on its
            // way to this new observer, so its initial value is delivered here, now, as
            // KVO promises (before this returns); the observer joins when it is done,
            // after the events queued before its value was read.
            let after = sequence
            let seen = version
            unlock()
            if !observer.isCancelled { call(observer, event) }
            join(observer, after: after, seen: seen, current: initial)
        }
        return true
    }

    /// Registers `observer`, whose initial value (read when the event numbered `after`
    /// was the last queued, and the channel's count of changes was `seen`) was just
    /// delivered on this thread while another delivered. `current` makes the event of
    /// the current value, under the lock.
    @usableFromInline
    final func join(_ observer: ChannelObserver<Event>, after: UInt64, seen: UInt, current: () -> Event) {
        lock()
        if isClosed || observer.isCancelled {
            // The source went away, or the observer was cancelled, meanwhile.
            countReachable(-1)
            let tell = isClosed && !observer.cancelled.exchange(true, ordering: .relaxed)
            let taken = isClosed && observer.isKeptAliveByOwner ? observer.takeHandleReferences() : 0
            unlock()
            if tell { observer.sourceDidEnd() }
            for _ in 0..<taken { Unmanaged.passUnretained(observer).release() }
        } else if isDelivering {
            deferredAdds.append(DeferredAdd(observer, after: after))
            unlock(work: true)
        } else if version != seen {
            // The delivery is over, and a change was sent since the initial value was
            // read, which reached the observers registered then, not this one: a source
            // that several threads send to (an `ObservableValue`, a
            // `CurrentValueSubject`, which count their changes under the lock). The
            // observer catches up with the current value, delivered as any event is,
            // before any later one.
            let event = current()
            insertDeliveringFirst(observer) { observer.receive(event) }
        } else {
            // The delivery is over and nothing was sent since the initial value was read
            // (a model's changes, which its isolation orders, come only from the thread
            // that handed it over, which waits).
            insert(observer)
            unlock()
        }
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
            deliverer.store(0, ordering: .relaxed)
            endDelivering()
        } else {
            pending.append(Pending(sequence: sequence, event: event, target: observer))
            unlock(work: true)
        }
    }

    /// Removes `observer` if registered, at its owner's request (its owner lets go of it
    /// itself: see ``ChannelObserver/handle``). Safe from any thread, inside callbacks,
    /// twice.
    @inlinable
    final func remove(_ observer: ChannelObserver<Event>) {
        observer.cancelled.store(true, ordering: .relaxed)
        lock()
        observer.handle = nil
        if isDelivering {
            deferredRemovals.append(observer)
            unlock(work: true)
            return
        }
        let taken = takeSlot(observer)
        unlock()
        if taken, !observer.isKeptAliveByOwner { Unmanaged.passUnretained(observer).release() }
    }

    /// The registered observers, in order (for rare look-ups such as `unbind`).
    final func snapshot() -> [ChannelObserver<Event>] {
        lock()
        var observers: [ChannelObserver<Event>] = []
        for index in 0..<slotCount {
            if let unmanaged = slots[index] { observers.append(unmanaged.takeUnretainedValue()) }
        }
        for waiting in waitingToJoin { observers.append(waiting.observer) }
        unlock()
        return observers
    }

    /// Cancels and removes every observer, for good: the source of the events is gone.
    ///
    /// Returns the observers, for the caller to tell outside any lock (`observers`), and
    /// the references to release after telling them (`released`: the channel's own, and
    /// for an observer kept alive by its `AnyCancellable`, that one's, which the channel
    /// takes over so that the observer and what its closure captures go now). During a
    /// delivery, the removals are deferred until the current event is done, and so is the
    /// release; observers waiting to join end then too. A delivery of this thread's (the
    /// source went away inside a callback) lets the caller tell the observers now; one of
    /// another thread's tells them itself, after the current event (it may be calling
    /// one of them at this moment).
    final func removeAll() -> (observers: [ChannelObserver<Event>], released: [Unmanaged<ChannelObserver<Event>>]) {
        lock()
        isClosed = true
        let delivering = isDelivering
        var observers: [ChannelObserver<Event>] = []
        var released: [Unmanaged<ChannelObserver<Event>>] = []
        for index in 0..<slotCount {
            guard let unmanaged = slots[index] else { continue }
            let observer = unmanaged.takeUnretainedValue()
            observer.cancelled.store(true, ordering: .relaxed)
            observers.append(observer)
            if delivering {
                deferredRemovals.append(observer)
            } else {
                observer.slot = -1
                slots[index] = nil
                if !observer.isKeptAliveByOwner {
                    released.append(unmanaged)
                } else {
                    for _ in 0..<observer.takeHandleReferences() { released.append(unmanaged) }
                }
            }
        }
        if delivering {
            for waiting in waitingToJoin where !waiting.observer.isCancelled {
                waiting.observer.cancelled.store(true, ordering: .relaxed)
                observers.append(waiting.observer)
            }
            if deliverer.load(ordering: .relaxed) != currentThreadID() {
                // Another thread is delivering (perhaps to one of these observers right
                // now): they hear the end from it, after the current event, so that no
                // observer is called from two threads at once.
                deferredEnds.append(contentsOf: observers)
                observers.removeAll()
            }
        } else {
            slotCount = 0
            liveCount = 0
            reachable.store(0, ordering: .relaxed)
        }
        unlock(work: delivering && hasDeferred)
        return (observers, released)
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

    /// Appends under the lock; the channel takes one retain (see `slots`).
    @inlinable
    final func insert(_ observer: ChannelObserver<Event>) {
        if slotCount == capacity { grow() }
        observer.slot = Int32(truncatingIfNeeded: slotCount)
        slots[slotCount] = observer.isKeptAliveByOwner ? Unmanaged.passUnretained(observer) : Unmanaged.passRetained(observer)
        slotCount += 1
        liveCount += 1
    }

    /// Removes under the lock (a removal deferred past a delivery); appends to `released`
    /// what the caller must release after unlocking (releasing may run deinit code that
    /// re-enters the library): the channel's retain, or for an observer kept alive by
    /// its owner, a new one, and the owner's if the channel takes it over.
    @inlinable
    final func take(_ observer: ChannelObserver<Event>, into released: inout [Unmanaged<ChannelObserver<Event>>]) {
        guard takeSlot(observer) else { return }
        let unmanaged = Unmanaged.passUnretained(observer)
        if observer.isKeptAliveByOwner {
            released.append(unmanaged.retain())
            for _ in 0..<observer.takeHandleReferences() { released.append(unmanaged) }
        } else {
            released.append(unmanaged)
        }
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

    /// Whether some observer is reachable (registered or waiting to join); see
    /// ``sendIfObserved(_:calling:)`` for when the answer is current.
    @inlinable
    final var isObserved: Bool { reachable.load(ordering: .relaxed) != 0 }

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
        guard state.compareExchange(expected: 0, desired: ChannelState.delivering, ordering: .acquiring).exchanged else {
            send(event) { true }
            return
        }
        if liveCount != 0 {
            deliverer.store(currentThreadID(), ordering: .relaxed)
            deliver(event, calling: call)
            deliverer.store(0, ordering: .relaxed)
        }
        endDelivering()
    }

    /// ``send(_:calling:)`` for a sender that can deliver without an event: `call` is given
    /// each observer, and reads what it sends from the sender's own variables. The event
    /// is made (`makeEvent`) only if it must wait in the queue, or go through the slow
    /// path (the lock is held, or another thread delivers).
    ///
    /// So a change delivered at once never copies its value into an event: for a value
    /// with reference-counted fields (a struct of Strings), each copy retains every field
    /// and each destroy releases it, through value witnesses when the event is large
    /// (measured: a struct of 3 Strings, one `sink`, 136 -> 77 ns a set; an `Int`, 12 -> 7.6 ns).
    @inlinable @inline(__always)
    final func send(queuing makeEvent: () -> Event, callingEach call: (ChannelObserver<Event>) -> Void) {
        guard state.compareExchange(expected: 0, desired: ChannelState.delivering, ordering: .acquiring).exchanged else {
            send(makeEvent()) { true }
            return
        }
        if liveCount != 0 {
            deliverer.store(currentThreadID(), ordering: .relaxed)
            let slots = self.slots
            let count = slotCount
            for index in 0..<count {
                guard let unmanaged = slots[index] else { continue }
                unmanaged._withUnsafeGuaranteedRef { observer in
                    if !observer.isCancelled { call(observer) }
                }
            }
            deliverer.store(0, ordering: .relaxed)
        }
        endDelivering()
    }

    /// Sends `event` if `accept`, run under the lock, returns `true`; `accept` is where a
    /// subject updates its current value or records its completion, atomically with the
    /// event's place in the order. `call` delivers it to each observer when it is
    /// delivered at once (see ``send(_:calling:)``).
    ///
    @inlinable
    final func send(
        _ event: Event, accept: () -> Bool,
        calling call: (ChannelObserver<Event>, Event) -> Void = { observer, event in observer.receive(event) }
    ) {
        send(makingUnderLock: { accept() ? event : nil }, calling: call)
    }

    /// ``send(_:accept:calling:)`` for an event that only the lock's holder can make (an
    /// `ObservableArray`'s changeset holds the contents after the change): `make` runs
    /// under the lock, changes what the channel stands for and returns the event that
    /// says so, or `nil` to send nothing. Queued if a delivery is under way, else
    /// delivered at once by this thread.
    @inlinable
    final func send(
        makingUnderLock make: () -> Event?,
        calling call: (ChannelObserver<Event>, Event) -> Void = { observer, event in observer.receive(event) }
    ) {
        sendInlined(makingUnderLock: make, calling: call)
    }

    /// ``send(makingUnderLock:calling:)``, always inlined into the caller: for a caller
    /// whose `call` captures the value it sends (a subject's), which, called out of line,
    /// becomes an indirect call per observer (measured: `CurrentValueSubject.send` with
    /// one sink 7.0 -> 13.3 ns). Not for every send: always inlined into
    /// `ObservableValue.update`, the same code measured 9.9 -> 12.1 ns.
    @inlinable @inline(__always)
    final func sendInlined(
        makingUnderLock make: () -> Event?,
        calling call: (ChannelObserver<Event>, Event) -> Void
    ) {
        lock()
        guard let event = make() else {
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
        deliver(event, calling: call)
        deliverer.store(0, ordering: .relaxed)
        endDelivering()
    }

    /// ``sendInlined(makingUnderLock:calling:)`` for a sender whose observers are called
    /// without the event (a subject's, which gives each its value as it is): the event is
    /// only made when it must wait in the queue (a delivery is under way).
    ///
    /// So a send that is delivered at once never builds the event, nor an optional of it.
    /// In generic code that was not specialized (the relay subject of `share()`, fed by a
    /// generic subscriber), building them looked up their types' metadata on every send
    /// (measured: `share()` with 10 `sink`s, 259 -> 159 ns a value; with 10 `Subscribers.Sink`s,
    /// 349 -> 252 ns).
    @inlinable @inline(__always)
    final func sendInlined(
        acceptingUnderLock accept: () -> Bool,
        queuing makeEvent: () -> Event,
        callingEach call: (ChannelObserver<Event>) -> Void
    ) {
        lock()
        guard accept() else {
            unlock()
            return
        }
        if isDelivering {
            queueEvent(makeEvent())
            unlock(work: true)
            return
        }
        if liveCount == 0 {
            unlock()
            return
        }
        unlockBecomingDeliverer()
        let slots = self.slots
        let count = slotCount
        for index in 0..<count {
            guard let unmanaged = slots[index] else { continue }
            unmanaged._withUnsafeGuaranteedRef { observer in
                if !observer.isCancelled { call(observer) }
            }
        }
        deliverer.store(0, ordering: .relaxed)
        endDelivering()
    }

    /// A send whose change is made under the lock and handed back after its delivery (an
    /// `ObservableArray`'s changeset, whose edits buffer is reused): `make` runs under the
    /// lock and returns the change (`nil`: nothing to send). If a delivery is under way,
    /// `makeEvent` turns it into an event for the queue. Otherwise this thread becomes
    /// the deliverer, gives it to each observer through `call`, then to `finish` (in
    /// place; held elsewhere only by a subscriber that kept a copy), still as the
    /// deliverer and without the lock: so the sender may keep state that only a
    /// deliverer writes, and that `make` reads only when no delivery is under way.
    ///
    /// The change is passed along, not captured: a closure that reads a captured `var`
    /// retains and releases each of its references per observer.
    ///
    /// Unlike the other sends, a change that no observer can reach is delivered too (to
    /// nobody), so that `finish` always gets it as the deliverer.
    @inlinable @inline(__always)
    final func sendInlined<Change>(
        makingUnderLock make: () -> Change?,
        queuing makeEvent: (consuming Change) -> Event,
        callingEach call: (ChannelObserver<Event>, Change) -> Void,
        thenAsDeliverer finish: (inout Change) -> Void
    ) {
        lock()
        guard var change = make() else {
            unlock()
            return
        }
        if isDelivering {
            queueEvent(makeEvent(consume change))
            unlock(work: true)
            return
        }
        unlockBecomingDeliverer()
        let slots = self.slots
        let count = slotCount
        for index in 0..<count {
            guard let unmanaged = slots[index] else { continue }
            unmanaged._withUnsafeGuaranteedRef { observer in
                if !observer.isCancelled { call(observer, change) }
            }
        }
        finish(&change)
        deliverer.store(0, ordering: .relaxed)
        endDelivering()
    }

    /// Ends a delivery: the common case (nothing queued or deferred meanwhile, nobody
    /// holding the lock) in one compare-and-swap, the rest in ``finishDelivering()``.
    @inlinable
    final func endDelivering() {
        if state.compareExchange(expected: ChannelState.delivering, desired: 0, ordering: .releasing).exchanged {
            return
        }
        finishDelivering()
    }

    /// Calls every registered observer that is not cancelled. Runs without the lock, only
    /// on the delivering thread, while no other thread writes `slots`.
    @inlinable
    final func deliver(_ event: Event) {
        deliver(event) { observer, event in observer.receive(event) }
    }

    /// ``deliver(_:)``, calling `call` for each observer.
    ///
    /// The sends above write this loop out themselves rather than share one that takes a
    /// closure: through a shared loop, the closure that passes the change on captured it,
    /// and set + notify measured 7.0 -> 8.4 ns, an `ObservableArray` append 32.5 -> 50 ns.
    @inlinable @inline(__always)
    final func deliver(_ event: Event, calling call: (ChannelObserver<Event>, Event) -> Void) {
        let slots = self.slots
        let count = slotCount
        for index in 0..<count {
            guard let unmanaged = slots[index] else { continue }
            unmanaged._withUnsafeGuaranteedRef { observer in
                if !observer.isCancelled { call(observer, event) }
            }
        }
    }

    /// Applies what was deferred and drains the queue, then ends the delivery.
    ///
    /// Whatever this drops (removed observers, delivered events) is released after the
    /// lock is given up, since a deinit may re-enter the library.
    @inlinable @inline(never)
    final func finishDelivering() {
        var released: [Unmanaged<ChannelObserver<Event>>] = []
        var dropped: [ChannelObserver<Event>] = []
        var delivered: [Pending] = []
        var endedLate: [(observer: ChannelObserver<Event>, tell: Bool)] = []
        let me = currentThreadID()
        while true {
            lock()
            let next = pendingHead < pending.count ? pending[pendingHead] : nil
            if hasDeferred {
                // A registration waits until the events queued before it are delivered.
                applyDeferred(before: next?.sequence ?? .max, &dropped, &released, &endedLate)
            }
            if let next {
                pendingHead += 1
                if pendingHead >= 1024, pendingHead * 2 >= pending.count {
                    // A long delivery (other threads keep sending): the delivered events
                    // leave the queue now, not when the delivery ends, so that it holds
                    // only what waits. Released after unlocking, with the rest.
                    delivered.append(contentsOf: pending[..<pendingHead])
                    pending.removeFirst(pendingHead)
                    pendingHead = 0
                }
                // Still delivering; `work` stays set while more is queued or deferred, so
                // that the compare-and-swap in `endDelivering` cannot end it early.
                let more = pendingHead < pending.count || hasDeferred
                let previous = state.exchange(
                    ChannelState.delivering | (more ? ChannelState.work : 0), ordering: .releasing)
                if previous & ChannelState.parked != 0 { ParkingLot.unparkAll(on: parkingKey) }
                drop(&released, &dropped, &endedLate)
                if !delivered.isEmpty { delivered.removeAll(keepingCapacity: true) }
                deliverer.store(me, ordering: .relaxed)
                if let target = next.target {
                    if !target.isCancelled { target.receive(next.event) }
                } else {
                    deliver(next.event)
                }
                deliverer.store(0, ordering: .relaxed)
                continue
            }
            if pendingHead > 0 {
                swap(&delivered, &pending)
                pendingHead = 0
            }
            // Nothing queued or deferred: stop delivering and unlock in one exchange.
            let previous = state.exchange(0, ordering: .releasing)
            if previous & ChannelState.parked != 0 { ParkingLot.unparkAll(on: parkingKey) }
            drop(&released, &dropped, &endedLate)
            return
        }
    }

    /// Under the lock, by the delivering thread: applies the deferred removals, and the
    /// registrations made before the event numbered `limit` was queued (the others stay
    /// deferred, in order). What must be released, dropped or told goes to the three
    /// lists, for ``drop(_:_:_:)`` after unlocking.
    @inlinable @inline(never)
    final func applyDeferred(
        before limit: UInt64, _ dropped: inout [ChannelObserver<Event>],
        _ released: inout [Unmanaged<ChannelObserver<Event>>],
        _ endedLate: inout [(observer: ChannelObserver<Event>, tell: Bool)]
    ) {
        if !deferredEnds.isEmpty {
            for observer in deferredEnds { endedLate.append((observer, true)) }
            deferredEnds.removeAll(keepingCapacity: true)
        }
        if !deferredRemovals.isEmpty {
            for observer in deferredRemovals { take(observer, into: &released) }
            // The entries' references go after unlocking, with the others.
            dropped.append(contentsOf: deferredRemovals)
            deferredRemovals.removeAll(keepingCapacity: true)
        }
        while deferredHead < deferredAdds.count, deferredAdds[deferredHead].after < limit {
            let observer = deferredAdds[deferredHead].observer
            deferredHead += 1
            dropped.append(observer)
            if observer.slot >= 0 { continue }
            if isClosed {
                // The source went away before it joined: it ends (told now, unless
                // `removeAll()` returned it for that).
                countReachable(-1)
                endedLate.append((observer, !observer.cancelled.exchange(true, ordering: .relaxed)))
                if observer.isKeptAliveByOwner {
                    for _ in 0..<observer.takeHandleReferences() { released.append(Unmanaged.passUnretained(observer)) }
                }
            } else if observer.isCancelled {
                countReachable(-1)
            } else {
                insert(observer)
            }
        }
        if deferredHead == deferredAdds.count, deferredHead > 0 {
            // Every reference in it is in `dropped` too: nothing is released here.
            deferredAdds.removeAll(keepingCapacity: true)
            deferredHead = 0
        }
    }

    /// Outside the lock: tells the observers that were to join a channel closed
    /// meanwhile, then releases what was taken out, and drops the applied changes.
    @inlinable @inline(never)
    final func drop(
        _ released: inout [Unmanaged<ChannelObserver<Event>>], _ dropped: inout [ChannelObserver<Event>],
        _ endedLate: inout [(observer: ChannelObserver<Event>, tell: Bool)]
    ) {
        if !endedLate.isEmpty {
            for (observer, tell) in endedLate where tell { observer.sourceDidEnd() }
            endedLate.removeAll()
        }
        if !released.isEmpty {
            for unmanaged in released { unmanaged.release() }
            released.removeAll(keepingCapacity: true)
        }
        if !dropped.isEmpty { dropped.removeAll(keepingCapacity: true) }
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
