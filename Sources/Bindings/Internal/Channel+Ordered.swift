import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The removals of an ordered channel that other threads make during a delivery (see
// "Ordered channels" in Channel.swift): queued on the side, applied by whoever ends an
// exclusive section next, or by the remover itself once the delivery is over.

extension Channel {
    /// ``remove(_:detach:)`` of an ordered channel whose state was not 0: a delivery is
    /// on (this thread's, re-entrantly, or another's), or another remover or registrant
    /// holds the lock for a moment.
    @usableFromInline
    final func removeOrderedSlow(_ observer: ChannelObserver<Event>, detach: Bool) {
        var attempts = 0
        while true {
            let current = state.load(ordering: .acquiring)
            if current == 0 {
                guard state.compareExchange(expected: 0, desired: ChannelState.locked, ordering: .acquiring).exchanged
                else { continue }
                let removed = take(observer)
                unlock()
                if let removed {
                    if detach { removed._withUnsafeGuaranteedRef { $0.detached() } }
                    removed.release()
                }
                return
            }
            if current & ChannelState.delivering != 0 {
                if deliverer.load(ordering: .relaxed) == currentThreadID() {
                    // From a callback of this very delivery: only this thread changes
                    // `state` now, so the usual deferral applies.
                    lock()
                    deferred.append(.remove(observer))
                    unlock(work: true)
                } else {
                    queueSideRemoval(observer)
                }
                return
            }
            // The lock alone: held for a few instructions, never across user code.
            attempts += 1
            if attempts > 32 { sched_yield() }
        }
    }

    /// Queues `observer`'s removal for the thread that is delivering, then makes sure it
    /// is applied (see "Ordered channels" in Channel.swift for why this cannot be lost).
    final func queueSideRemoval(_ observer: ChannelObserver<Event>) {
        sideLock.lock()
        side.append(Unmanaged.passRetained(observer))
        // A read-modify-write: ordered before the loads below on every architecture.
        sideCount.add(1, ordering: .sequentiallyConsistent)
        sideLock.unlock()
        AsymmetricFence.heavy()
        if state.load(ordering: .sequentiallyConsistent) == 0 { applySideRemovals() }
    }

    /// Applies the queued removals, if the lock can be had; if not, its holder applies
    /// them when it lets go. Outside any lock.
    @usableFromInline
    final func applySideRemovals() {
        var released: [Unmanaged<ChannelObserver<Event>>] = []
        var dropped: [Unmanaged<ChannelObserver<Event>>] = []
        while sideCount.load(ordering: .acquiring) != 0 {
            guard state.compareExchange(expected: 0, desired: ChannelState.locked, ordering: .acquiring).exchanged
            else { return }
            takeSideRemovals(released: &released, dropped: &dropped)
            state.store(0, ordering: .releasing)
            for unmanaged in released {
                unmanaged._withUnsafeGuaranteedRef { $0.detached() }
                unmanaged.release()
            }
            released.removeAll(keepingCapacity: true)
            drop(&dropped)
        }
    }

    /// Under the lock (or as the deliverer holding it): takes every queued observer out
    /// of `slots`. `released` gets the channel's retains of those it took (to detach and
    /// release), `dropped` the queue's own retains (to release); both after unlocking.
    final func takeSideRemovals(
        released: inout [Unmanaged<ChannelObserver<Event>>], dropped: inout [Unmanaged<ChannelObserver<Event>>]
    ) {
        sideLock.lock()
        var queued: [Unmanaged<ChannelObserver<Event>>] = []
        swap(&queued, &side)
        sideCount.store(0, ordering: .releasing)
        sideLock.unlock()
        for unmanaged in queued {
            if let removed = take(unmanaged.takeUnretainedValue()) { released.append(removed) }
            dropped.append(unmanaged)
        }
    }

    /// Releases the queue's retains taken by ``takeSideRemovals(released:dropped:)``.
    final func drop(_ dropped: inout [Unmanaged<ChannelObserver<Event>>]) {
        if dropped.isEmpty { return }
        for unmanaged in dropped { unmanaged.release() }
        dropped.removeAll(keepingCapacity: true)
    }

    /// A registration, a send or a look-up reached an ordered channel from a thread other
    /// than the one delivering its change.
    @usableFromInline
    final func orderedMisuse() -> Never {
        // `fatalError`: its message is printed in release builds too.
        fatalError("""
            Bindings: an @Observed property was set, subscribed to or unbound on one thread \
            while another thread was delivering a change of it. An @Observed property is its \
            model's state: set it, and subscribe to it, only where the model may be used (its \
            actor, the main actor, or one thread at a time). For a value that any thread may \
            set, use ObservableValue.
            """)
    }
}
