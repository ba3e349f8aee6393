import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The requests that other threads make of an ordered channel during a delivery (see
// "Ordered channels" in Channel.swift): queued on the side, applied by whoever ends an
// exclusive section next, or by the queuing thread itself once the delivery is over.

extension Channel {
    /// ``lockUnlessDeliveringElsewhere()`` when the state was not 0: a delivery is on
    /// (this thread's, re-entrantly, or another's), or the lock is held for a moment.
    @usableFromInline
    final func lockUnlessDeliveringElsewhereSlow() -> Bool {
        var attempts = 0
        while true {
            let current = state.load(ordering: .acquiring)
            if current & ChannelState.locked == 0 {
                if current & ChannelState.delivering != 0, deliverer.load(ordering: .relaxed) != currentThreadID() {
                    return false
                }
                // Free, or this thread's own delivery (from one of its callbacks): only
                // this thread changes `state` then.
                if state.compareExchange(expected: current, desired: current | ChannelState.locked, ordering: .acquiring).exchanged {
                    // Within its own delivery, this thread's request comes after what a
                    // thread it handed the model to queued meanwhile: take that first.
                    if current & ChannelState.delivering != 0, sideCount.load(ordering: .acquiring) != 0 {
                        takeSideQueueWhileDelivering()
                    }
                    return true
                }
                continue
            }
            // The lock alone: held for a few instructions, never across user code.
            attempts += 1
            if attempts > 32 { sched_yield() }
        }
    }

    // One entry point per kind of request, out of line: building a `SideRequest` in the
    // callers' bodies made them look up its generic metadata on every call, queued or not.

    @usableFromInline
    final func queueRemovalOnTheSide(_ observer: ChannelObserver<Event>) { queueOnTheSide(.remove(observer)) }

    @usableFromInline
    final func queueSendOnTheSide(_ event: Event) { queueOnTheSide(.send(event)) }

    @usableFromInline
    final func queueAddOnTheSide(_ observer: ChannelObserver<Event>, initial: Event?) {
        queueOnTheSide(.add(observer, initial: initial))
    }

    /// Queues `request` for the thread that is delivering, then makes sure it is applied
    /// (see "Ordered channels" in Channel.swift for why it cannot be left behind).
    final func queueOnTheSide(_ request: SideRequest) {
        let isRemoval: Bool
        if case .remove = request { isRemoval = true } else { isRemoval = false }
        sideLock.lock()
        side.append(request)
        if isRemoval { sideRemovals += 1 }
        // A read-modify-write: ordered before the loads below on every architecture.
        sideCount.add(1, ordering: .sequentiallyConsistent)
        sideLock.unlock()
        AsymmetricFence.heavy()
        // A removal may come from any thread: it applies removals only. A send or a
        // registration comes from the model's isolation (a thread the delivering one
        // waits for), which may deliver.
        applySideQueue(all: !isRemoval)
    }

    /// Applies what is queued on the side, when `state` is 0 and the lock can be had.
    ///
    /// With `all`, on the model's isolation only (the end of a delivery, or the thread
    /// that queued a send or a registration): everything, delivering the sends and
    /// registrations as the deliverer would have, and waiting out a lock held for a
    /// moment. Otherwise, from any thread (the end of a locked section, a removal):
    /// removals only, and not if the lock or a delivery is on (its end applies them);
    /// sends and registrations stay for the model's threads, whose ends and queuers see
    /// them (user code never runs on a thread that only cancelled).
    ///
    /// Called outside any lock, where user code may run.
    @usableFromInline
    final func applySideQueue(all: Bool) {
        var released: [Unmanaged<ChannelObserver<Event>>] = []
        var requests: [SideRequest] = []
        var attempts = 0
        while sideCount.load(ordering: .acquiring) != 0 {
            // Without `all`, only removals are this thread's to apply.
            if !all, sideLock.withLock({ sideRemovals }) == 0 { return }
            let current = state.load(ordering: .acquiring)
            if current != 0 {
                // A delivery applies everything when it ends; a lock held for a moment
                // applies removals when it is given up.
                guard all, current == ChannelState.locked else { return }
                attempts += 1
                if attempts > 32 { sched_yield() }
                continue
            }
            guard state.compareExchange(expected: 0, desired: ChannelState.locked, ordering: .acquiring).exchanged
            else { continue }
            takeSideQueue(all: all, released: &released, requests: &requests)
            if !deferred.isEmpty || pendingHead < pending.count {
                // Sends or registrations: deliver them as the deliverer would have.
                unlockBecomingDeliverer()
                dropReleased(&released, &requests)
                finishDelivering()   // ends with its own look at the side queue
                return
            }
            state.store(0, ordering: .releasing)
            AsymmetricFence.compilerBarrier()
            dropReleased(&released, &requests)
            // Look again: a removal that was about to be queued when the lock was taken
            // may have been queued meanwhile, its thread leaving it to this one.
        }
    }

    /// Under the lock: turns what is queued on the side into the channel's own queued
    /// work, in order (`all`), or takes the removals only (leaving the rest queued): a
    /// removal takes its observer out of `slots` (`released` gets the retain to
    /// release), a send joins `pending`, a registration joins `deferred` (and its initial
    /// event `pending`), as they would have had they found the lock free. `requests` gets
    /// what was taken, to be dropped after unlocking.
    ///
    /// `midDelivery`: called by the delivering thread from one of its callbacks, while
    /// the delivery loop reads `slots`; a removal is then deferred, like one made from a
    /// callback, and nothing is released.
    final func takeSideQueue(
        all: Bool, midDelivery: Bool = false,
        released: inout [Unmanaged<ChannelObserver<Event>>], requests: inout [SideRequest]
    ) {
        sideLock.lock()
        if all {
            swap(&requests, &side)
            sideCount.store(0, ordering: .releasing)
        } else {
            var kept: [SideRequest] = []
            for request in side {
                if case .remove = request { requests.append(request) } else { kept.append(request) }
            }
            side = kept
            sideCount.store(kept.count, ordering: .releasing)
        }
        sideRemovals = 0
        sideLock.unlock()
        for request in requests {
            switch request {
            case .remove(let observer):
                if midDelivery {
                    deferred.append(.remove(observer))
                } else if let removed = take(observer) {
                    released.append(removed)
                }
            case .send(let event):
                queueEvent(event)
            case .add(let observer, let initial):
                queueJoin(observer, initial: initial)
            }
        }
    }

    /// ``takeSideQueue(all:midDelivery:released:requests:)`` by the delivering thread
    /// from one of its callbacks, ahead of the request it is about to make. What is
    /// dropped here is held elsewhere too (in `deferred` or `pending`), so nothing is
    /// deinitialised under the lock.
    final func takeSideQueueWhileDelivering() {
        var released: [Unmanaged<ChannelObserver<Event>>] = []
        var requests: [SideRequest] = []
        takeSideQueue(all: true, midDelivery: true, released: &released, requests: &requests)
        // The delivering thread ends with `finishDelivering()`, which applies all this.
        state.store(state.load(ordering: .relaxed) | ChannelState.work, ordering: .relaxed)
    }

    /// Releases what ``takeSideQueue(all:midDelivery:released:requests:)`` took, outside the lock.
    final func dropReleased(_ released: inout [Unmanaged<ChannelObserver<Event>>], _ requests: inout [SideRequest]) {
        for unmanaged in released {
            unmanaged._withUnsafeGuaranteedRef { $0.detached() }
            unmanaged.release()
        }
        released.removeAll(keepingCapacity: true)
        requests.removeAll(keepingCapacity: true)
    }

    /// A look-up of an ordered channel's observers (`unbind`), or its closing (the model
    /// deinitialised), met a delivery on another thread: it can neither wait for it (the
    /// delivering thread may be waiting for this one) nor be queued.
    @usableFromInline
    final func orderedMisuse() -> Never {
        // `fatalError`: its message is printed in release builds too.
        fatalError("""
            Bindings: unbind(_:) was called for an @Observed property, or its model was \
            released, on one thread while another thread was delivering a change of it (it \
            was handed the model from inside a callback, or the model is used on two threads \
            at once). Call unbind(_:), and release the model, where the model is used (its \
            actor, the main actor, or its one thread), or after the delivery, for instance \
            from a later set or a queued task.
            """)
    }
}
