import Synchronization

extension Channel {
    /// ``send(_:accept:calling:)`` for an event that only the lock's holder can make:
    /// `make` runs under the lock, changes what the channel stands for and returns the
    /// event that says so, or `nil` to send nothing. The same steps otherwise: queued if
    /// a delivery is under way, else delivered at once by this thread.
    /// `call` delivers it to each observer when it is delivered at once (see
    /// ``send(_:calling:)``).
    @inlinable
    final func send(
        makingUnderLock make: () -> Event?,
        calling call: (ChannelObserver<Event>, Event) -> Void = { observer, event in observer.receive(event) }
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
}
