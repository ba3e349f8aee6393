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
/// - Cost of a send with no observers: one lock round trip. With observers: two, plus a
///   plain call per observer (observers are stored unmanaged, so the loop does not
///   retain or release them).
///
/// Subclasses add state (``PropertyChannel``); every member here is `final`.
@usableFromInline
class Channel<Event>: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property below is guarded by `lock`, except
    // `slots` and `slotCount`, which the delivering thread also reads without the lock
    // while `delivering` is true; during that time no thread writes them (adds and
    // removals go to `deferred` and are applied by the delivering thread under the lock).
    // `@exclusivity(unchecked)`: the lock, not dynamic enforcement, orders these accesses.

    @usableFromInline final let lock = Lock()

    /// Registered observers, in registration order, each retained once by the channel
    /// (released outside the lock on removal). A removed observer leaves a hole (`nil`)
    /// that is compacted away later, so that removal costs O(1) and order is kept.
    @exclusivity(unchecked) @usableFromInline
    final var slots: UnsafeMutablePointer<Unmanaged<ChannelObserver<Event>>?>
    @exclusivity(unchecked) @usableFromInline final var slotCount = 0
    @exclusivity(unchecked) @usableFromInline final var capacity: Int
    @exclusivity(unchecked) @usableFromInline final var liveCount = 0

    @exclusivity(unchecked) @usableFromInline final var delivering = false
    @exclusivity(unchecked) @usableFromInline final var deliverer = pthread_self()
    @exclusivity(unchecked) @usableFromInline final var sequence: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline final var pending: [Pending] = []
    @exclusivity(unchecked) @usableFromInline final var pendingHead = 0
    @exclusivity(unchecked) @usableFromInline final var deferred: [DeferredChange] = []

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

    @usableFromInline
    enum DeferredChange {
        case add(ChannelObserver<Event>)
        case remove(ChannelObserver<Event>)
    }

    @inlinable
    init() {
        capacity = 2
        slots = .allocate(capacity: 2)
    }

    /// The source is gone: every observer hears `sourceDidEnd()` and is released.
    deinit {
        for index in 0..<slotCount {
            guard let unmanaged = slots[index] else { continue }
            let observer = unmanaged.takeRetainedValue()
            observer.slot = -1
            if !observer.cancelled.exchange(true, ordering: .relaxed) {
                observer.sourceDidEnd()
            }
        }
        slots.deallocate()
    }

    /// The number of registered observers.
    final var observerCount: Int { lock.withLock { liveCount } }

    // MARK: Registration

    /// Registers `observer`: it receives the events sent from now on.
    ///
    /// `accept` runs under the lock first; when it returns `false` nothing is registered
    /// and `add` returns `false` (a completed subject, a closed channel).
    @inlinable @discardableResult
    final func add(_ observer: ChannelObserver<Event>, accept: () -> Bool = { true }) -> Bool {
        lock.lock()
        guard accept() else {
            lock.unlock()
            return false
        }
        observer.joinedAfter = sequence
        if delivering { deferred.append(.add(observer)) } else { insert(observer) }
        lock.unlock()
        return true
    }

    /// Registers `observer` and delivers it the event that `initial` makes first; see
    /// ``add(_:accept:)``. `initial` runs under the lock, so that what it reads is
    /// ordered with `send(_:accept:)`. The initial event is delivered before this
    /// returns, unless another thread is delivering at this moment, in which case that
    /// thread delivers it next, in order.
    @inlinable @discardableResult
    final func add(_ observer: ChannelObserver<Event>, initial: () -> Event, accept: () -> Bool = { true }) -> Bool {
        lock.lock()
        guard accept() else {
            lock.unlock()
            return false
        }
        observer.joinedAfter = sequence
        let event = initial()
        if !delivering {
            // Become the deliverer, so that nothing reaches the observer before this.
            insert(observer)
            delivering = true
            deliverer = pthread_self()
            lock.unlock()
            if !observer.isCancelled { observer.receive(event) }
            endDelivering()
        } else if pthread_equal(deliverer, pthread_self()) != 0 {
            // Re-entrant, from a callback on the delivering thread: deliver now; the
            // observer joins the list when the current event is done.
            deferred.append(.add(observer))
            lock.unlock()
            if !observer.isCancelled { observer.receive(event) }
        } else {
            deferred.append(.add(observer))
            pending.append(Pending(sequence: sequence, event: event, target: observer))
            lock.unlock()
        }
        return true
    }

    /// Delivers the event that `current` makes (under the lock) to `observer` alone,
    /// ordered with every other delivery; used to re-send a current value on demand.
    @inlinable
    final func deliverCurrent(to observer: ChannelObserver<Event>, _ current: () -> Event?) {
        lock.lock()
        guard let event = current() else {
            lock.unlock()
            return
        }
        if !delivering {
            delivering = true
            deliverer = pthread_self()
            lock.unlock()
            if !observer.isCancelled { observer.receive(event) }
            endDelivering()
        } else {
            pending.append(Pending(sequence: sequence, event: event, target: observer))
            lock.unlock()
        }
    }

    /// Removes `observer` if registered. Safe from any thread, inside callbacks, twice.
    @inlinable
    final func remove(_ observer: ChannelObserver<Event>) {
        observer.cancelled.store(true, ordering: .relaxed)
        lock.lock()
        if delivering {
            deferred.append(.remove(observer))
            lock.unlock()
            return
        }
        let removed = take(observer)
        lock.unlock()
        removed?.release()
    }

    /// The registered observers, in order (for rare look-ups such as `unbind`).
    final func snapshot() -> [ChannelObserver<Event>] {
        lock.lock()
        var observers: [ChannelObserver<Event>] = []
        for index in 0..<slotCount {
            if let unmanaged = slots[index] { observers.append(unmanaged.takeUnretainedValue()) }
        }
        for case .add(let observer) in deferred { observers.append(observer) }
        lock.unlock()
        return observers
    }

    /// Cancels and removes every observer; the caller releases what is returned, outside
    /// any lock. Used when the source of the events completes or goes away.
    final func removeAll() -> [ChannelObserver<Event>] {
        lock.lock()
        var removed: [ChannelObserver<Event>] = []
        for index in 0..<slotCount {
            guard let unmanaged = slots[index] else { continue }
            let observer = unmanaged.takeUnretainedValue()
            observer.cancelled.store(true, ordering: .relaxed)
            if delivering {
                deferred.append(.remove(observer))
            } else {
                observer.slot = -1
                removed.append(unmanaged.takeRetainedValue())
                slots[index] = nil
            }
        }
        if !delivering {
            slotCount = 0
            liveCount = 0
        }
        lock.unlock()
        return removed
    }

    /// Appends under the lock; the channel takes one retain.
    @inlinable
    final func insert(_ observer: ChannelObserver<Event>) {
        if slotCount == capacity { grow() }
        observer.slot = slotCount
        slots[slotCount] = Unmanaged.passRetained(observer)
        slotCount += 1
        liveCount += 1
    }

    /// Removes under the lock; returns the channel's retain for the caller to release
    /// after unlocking (releasing may run deinit code that re-enters the library).
    @inlinable
    final func take(_ observer: ChannelObserver<Event>) -> Unmanaged<ChannelObserver<Event>>? {
        let index = observer.slot
        guard index >= 0, index < slotCount, let unmanaged = slots[index],
              unmanaged.toOpaque() == Unmanaged.passUnretained(observer).toOpaque()
        else { return nil }
        slots[index] = nil
        observer.slot = -1
        liveCount -= 1
        if index == slotCount - 1 {
            slotCount -= 1
            while slotCount > 0, slots[slotCount - 1] == nil { slotCount -= 1 }
        } else if liveCount * 2 < slotCount, slotCount > 8 {
            compact()
        }
        return unmanaged
    }

    /// Closes the holes, keeping order. Amortised O(1) per removal: it runs only when
    /// more than half the slots are holes.
    @usableFromInline
    final func compact() {
        var write = 0
        for read in 0..<slotCount {
            if let unmanaged = slots[read] {
                unmanaged.takeUnretainedValue().slot = write
                slots[write] = unmanaged
                write += 1
            }
        }
        for index in write..<slotCount { slots[index] = nil }
        slotCount = write
    }

    @usableFromInline
    final func grow() {
        let newCapacity = capacity * 2
        let newSlots = UnsafeMutablePointer<Unmanaged<ChannelObserver<Event>>?>.allocate(capacity: newCapacity)
        newSlots.moveInitialize(from: slots, count: slotCount)
        slots.deallocate()
        slots = newSlots
        capacity = newCapacity
    }

    // MARK: Delivery

    /// Sends `event` to every observer (see the type's contract).
    @inlinable
    final func send(_ event: Event) {
        send(event) { true }
    }

    /// Sends `event` if `accept`, run under the lock, returns `true`; `accept` is where a
    /// subject updates its current value or records its completion, atomically with the
    /// event's place in the order.
    @inlinable
    final func send(_ event: Event, accept: () -> Bool) {
        lock.lock()
        guard accept() else {
            lock.unlock()
            return
        }
        sequence &+= 1
        if delivering {
            pending.append(Pending(sequence: sequence, event: event, target: nil))
            lock.unlock()
            return
        }
        if liveCount == 0 {
            lock.unlock()
            return
        }
        delivering = true
        deliverer = pthread_self()
        let sequence = self.sequence
        lock.unlock()
        deliver(event, sequence: sequence)
        endDelivering()
    }

    /// Ends a delivery: the common case (nothing queued or deferred meanwhile) inline,
    /// the rest in ``finishDelivering()``.
    @inlinable
    final func endDelivering() {
        lock.lock()
        if deferred.isEmpty, pendingHead == pending.count {
            delivering = false
            lock.unlock()
            return
        }
        lock.unlock()
        finishDelivering()
    }

    /// Calls every registered observer. Runs without the lock, only on the delivering
    /// thread, while no other thread writes `slots`.
    @inlinable
    final func deliver(_ event: Event, sequence: UInt64) {
        let slots = self.slots
        let count = slotCount
        for index in 0..<count {
            guard let unmanaged = slots[index] else { continue }
            unmanaged._withUnsafeGuaranteedRef { observer in
                if observer.joinedAfter < sequence, !observer.isCancelled {
                    observer.receive(event)
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
        while true {
            lock.lock()
            if !deferred.isEmpty {
                swap(&changes, &deferred)
                for change in changes {
                    switch change {
                    case .add(let observer):
                        if !observer.isCancelled, observer.slot < 0 { insert(observer) }
                    case .remove(let observer):
                        if let unmanaged = take(observer) { released.append(unmanaged) }
                    }
                }
            }
            if pendingHead < pending.count {
                let next = pending[pendingHead]
                pendingHead += 1
                lock.unlock()
                dropReleased(&released, &changes)
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
            delivering = false
            lock.unlock()
            dropReleased(&released, &changes)
            return
        }
    }

    @inlinable
    final func dropReleased(_ released: inout [Unmanaged<ChannelObserver<Event>>], _ changes: inout [DeferredChange]) {
        if !released.isEmpty {
            for unmanaged in released { unmanaged.release() }
            released.removeAll(keepingCapacity: true)
        }
        if !changes.isEmpty { changes.removeAll(keepingCapacity: true) }
    }
}
