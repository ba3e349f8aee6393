import Synchronization

// Registration: adding and removing observers of a `Channel`, deferred to its deliverer
// while a delivery is under way (see the type's contract in Channel.swift).
extension Channel {
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
            // The observer joins before the events queued since its initial value was
            // read, in order with the registrations deferred meanwhile. If a change was
            // sent since then, the delivery under way may have delivered it already, to
            // the observers registered then, not this one. A change still queued brings
            // the observer the latest value (every send queues while the delivery lasts).
            // Otherwise it catches up with the current value, queued for it alone before
            // the newer events that are not changes (a subject's completion).
            if version != seen {
                let newer = pending[pendingHead...].firstIndex { $0.target == nil && $0.sequence > after }
                let changeQueued = newer.map { pending[$0...].contains { $0.target == nil && $0.carriesChange } } ?? false
                if !changeQueued {
                    let catchUp = Pending(
                        sequence: newer.map { max(after, pending[$0].sequence &- 1) } ?? sequence,
                        event: current(), target: observer)
                    pending.insert(catchUp, at: newer ?? pending.count)
                }
            }
            deferInOrder(DeferredAdd(observer, after: after))
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
        let isReentrant = deliverer.load(ordering: .relaxed) == currentThreadID()
        let now = version
        pending.append(Pending(
            sequence: sequence, event: event, target: nil, isReentrant: isReentrant,
            carriesChange: now != versionAtLastSend))
        versionAtLastSend = now
    }

    /// Under the lock, for a send delivered at once (or to nobody): see
    /// ``versionAtLastSend``.
    @inlinable @inline(__always)
    final func noteSentAtOnce() {
        versionAtLastSend = version
    }

    /// Defers the registration of `add` in the order of the events it waits for, which
    /// ``applyDeferred(before:_:_:_:)`` relies on (it looks at the first only).
    @usableFromInline
    final func deferInOrder(_ add: DeferredAdd) {
        var index = deferredAdds.count
        while index > deferredHead, deferredAdds[index - 1].after > add.after { index -= 1 }
        deferredAdds.insert(add, at: index)
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
}
