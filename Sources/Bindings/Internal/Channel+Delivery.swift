import Synchronization

// Delivery: sending events to a `Channel`'s observers, one at a time and in order, with
// the events and registrations that arrive meanwhile queued for the deliverer (see the
// type's contract in Channel.swift).
//
// The loop over the observers is written out in each kind of send, on purpose: moved to
// one always-inlined method that takes the call as a closure, it was left a call with
// an unspecialized closure in the setter (measured: set + notify 6.3 -> 13 ns,
// `ObservableArray.append` 22 -> 38 ns).
extension Channel {
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
        noteSentAtOnce()
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
        noteSentAtOnce()
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
        noteSentAtOnce()
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
        // Events in a row sent from inside this thread's own callbacks (see
        // `stopRunawayCycle()`).
        var reentrantRun = 0
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
                if next.isReentrant {
                    reentrantRun += 1
                    if reentrantRun >= Self.runawayLimit { stopRunawayCycle() }
                } else {
                    reentrantRun = 0
                }
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
