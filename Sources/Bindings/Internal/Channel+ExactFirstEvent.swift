import Synchronization

extension Channel {
    /// Registers `observer` with a first event that later events build on, so that it
    /// must be ordered exactly among the sends, none missed or repeated (an
    /// `ObservableArray`'s contents, which its next changesets edit). `first` runs under
    /// the lock, ordered with every send, and makes that event (`nil`: none); `deliver`
    /// gets it on this thread, before this returns.
    ///
    /// - No delivery is under way: this thread delivers the first event as the
    ///   deliverer, so that what is sent meanwhile reaches the observer after it.
    /// - A callback of this thread's own delivery registers: the first event is
    ///   delivered at once; the observer joins once the events queued before `first` ran
    ///   are delivered (they are in the first event, since `first` saw their changes).
    /// - Another thread is delivering: the same, but that thread may reach the observer
    ///   while `deliver` still runs here. So `holdLaterEvents` runs first, under the lock,
    ///   before the observer can be reached: the observer must keep what it receives
    ///   from then on until `deliver` is done, and pass it on after.
    ///
    /// Unlike ``add(_:initial:accept:calling:)``, no current value is re-sent to catch
    /// up: a second first event would repeat what the observer has.
    ///
    /// Returns `false`, registering nothing, when `accept` (run under the lock first)
    /// does.
    final func add(
        _ observer: ChannelObserver<Event>, exactFirst first: () -> Event?, accept: () -> Bool,
        holdLaterEvents: () -> Void, deliver: (Event) -> Void
    ) -> Bool {
        guard lockForRegistration(accept) else { return false }
        let event = first()
        if !isDelivering {
            if let event {
                insertDeliveringFirst(observer) { deliver(event) }
            } else {
                insert(observer)
                unlock()
            }
            return true
        }
        if event != nil, deliverer.load(ordering: .relaxed) != currentThreadID() { holdLaterEvents() }
        deferredAdds.append(DeferredAdd(observer, after: sequence))
        unlock(work: true)
        if let event, !observer.isCancelled { deliver(event) }
        return true
    }
}
