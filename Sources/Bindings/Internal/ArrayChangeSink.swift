import Synchronization

/// The observer behind `sink(receiveValue:)` on an ``ObservableArray``'s
/// ``ObservableArray/changes``: as a ``ValueObserver`` is for a property, it holds the
/// user's closure as a `let` and the array's mutations call it straight from code
/// specialized for the element type, so that a changeset costs one call, with no lock,
/// retain or queue of its own. The channel orders the calls (one delivery at a time),
/// and sends none after a cancellation (``ChannelObserver/cancelled``).
///
/// The one case that needs more: the first changeset (the contents as insertions) is
/// delivered by the subscribing thread, but if another thread is delivering a change at
/// that moment, it may reach this observer with the next changes meanwhile
/// (``Channel/add(_:exactFirst:accept:holdLaterEvents:deliver:)``). Then `catchingUp` is
/// set, those changes wait in `held`, and the subscribing thread delivers them after the
/// first one; the hot path pays one plain load for this.
///
/// On an array's channel, ``ValueObserverFlag`` marks this class: it is kept alive by its
/// one `AnyCancellable` (``ChannelObserver/isKeptAliveByOwner``), which the channel takes
/// over when the array goes, so that the closure goes with the array. Nothing sends
/// through `PropertyChannel.call` on an array's channel, which would take it for a
/// ``ValueObserver``.
@usableFromInline
final class ArrayChangeSink<Element>: ChannelObserver<PropertyEvent<CollectionChange<Element>>>, @unchecked Sendable {
    // `@unchecked Sendable`:
    // - `channel`, `receiveValue`: `let`s. The closure is called by one thread at a time:
    //   the channel's deliverer, or the subscribing thread while `catchingUp` is set,
    //   during which the deliverer only appends to `held`.
    // - `catchingUp`: atomic; set under the channel's lock before the observer can be
    //   reached, cleared with `lock` held.
    // - `held`: only touched with `lock` held.
    // - The base class's `slot` and `handle`: the channel's lock (see `ChannelObserver`).
    @usableFromInline typealias Change = CollectionChange<Element>

    let channel: PropertyChannel<Change>
    @usableFromInline let receiveValue: (Change) -> Void
    /// Set while the subscribing thread delivers the first changeset and may be reached
    /// by another thread's delivery: what arrives waits in `held`.
    @usableFromInline let catchingUp = Atomic<Bool>(false)
    let lock = CompactLock()
    @exclusivity(unchecked) var held: [Change] = []

    init(channel: PropertyChannel<Change>, receiveValue: @escaping (Change) -> Void) {
        self.channel = channel
        self.receiveValue = receiveValue
        super.init(optionBits: ValueObserverFlag.bit)
    }

    /// Delivers a changeset (from the channel's delivering thread).
    @inlinable @inline(__always)
    final func receiveChange(_ change: Change) {
        // Acquiring: once the subscribing thread has caught up, its calls happen before
        // this one.
        if _fastPath(!catchingUp.load(ordering: .acquiring)) {
            receiveValue(change)
        } else {
            hold(change)
        }
    }

    /// A changeset queued by the channel (sent while another was delivered).
    override func receive(_ event: PropertyEvent<Change>) {
        guard !event.isPrior, let change = event.new else { return }
        receiveChange(change)
    }

    /// ``receiveChange(_:)`` while the subscribing thread may still be delivering the
    /// first changeset: kept for it, unless it has finished meanwhile.
    @usableFromInline
    func hold(_ change: Change) {
        lock.lock()
        if catchingUp.load(ordering: .relaxed) {
            held.append(change)
            lock.unlock()
            return
        }
        lock.unlock()
        receiveValue(change)
    }

    /// Registers with the array's channel and delivers the first changeset (the
    /// contents, unless empty), then whatever another thread's delivery held meanwhile.
    /// Returns `false` if the array is gone.
    func register(_ storage: ObservableArray<Element>.Storage) -> Bool {
        channel.add(
            self,
            exactFirst: {
                let elements = storage.elements
                return elements.isEmpty ? nil : PropertyEvent(isPrior: false, old: nil, new: .fromEmpty(to: elements))
            },
            accept: { !channel.closed },
            holdLaterEvents: { catchingUp.store(true, ordering: .relaxed) },
            deliver: { event in
                receiveValue(event.new!)
                if catchingUp.load(ordering: .relaxed) { deliverHeld() }
            })
    }

    /// On the subscribing thread, after the first changeset: delivers what waits, until
    /// nothing does, then lets the deliverer call the closure itself.
    func deliverHeld() {
        while true {
            lock.lock()
            if held.isEmpty {
                catchingUp.store(false, ordering: .releasing)
                lock.unlock()
                return
            }
            let changes = held
            held = []
            lock.unlock()
            for change in changes where !isCancelled { receiveValue(change) }
        }
    }

    /// The array was gone before the observer could register: let go of the closure now,
    /// rather than when the `AnyCancellable` goes (it cancels nothing then).
    func endUnregistered() {
        let taken = channel.withLock { takeHandleReferences() }
        for _ in 0..<taken { Unmanaged.passUnretained(self).release() }
    }

    /// Called once: the observer has one `AnyCancellable`. The channel's lock orders the
    /// removal with the registration.
    override func cancelFromHandle() {
        cancelled.store(true, ordering: .releasing)
        channel.remove(self)
    }
}
