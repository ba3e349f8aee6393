extension ObservableArray {
    /// The changes of the array, as ``CollectionChange`` values.
    ///
    /// ```swift
    /// var mirror: [String] = []
    /// let c = tasks.changes.sink { mirror = mirror.applying($0) }   // mirror == tasks.elements, always
    /// ```
    ///
    /// A new subscriber first receives, if the array is not empty, one changeset that
    /// brings an empty array to the current contents (an `.insert` per element); then
    /// every change after that, in the order the changes were applied, none missed or
    /// repeated (the first changeset is taken, and the subscriber registered, at one
    /// moment in that order). A changeset with no edits is never sent. So a mirror that
    /// starts empty and applies every changeset it receives equals the array after each.
    public var changes: Changes { Changes(array: self) }

    /// The publisher of an array's changes (``ObservableArray/changes``): it publishes
    /// a ``CollectionChange`` for the current contents, unless the array is empty, then
    /// one for each change, and finishes when the array is released.
    ///
    /// It holds the array; its subscriptions do not.
    ///
    /// Demand: a subscriber that has no demand when changes happen receives them merged
    /// into one changeset when it asks for more (the edits of each, in order, and the
    /// latest collection), so that nothing is lost and a mirror still matches. When the
    /// array is released, changesets still waiting for demand are dropped and the
    /// subscriber finishes.
    public struct Changes: Publisher, CustomStringConvertible {
        /// Each change, with the array after it.
        public typealias Output = CollectionChange<Element>
        /// This publisher cannot fail.
        public typealias Failure = Never

        /// The array whose changes are published.
        public let array: ObservableArray

        /// "ObservableArray.Changes".
        public var description: String { "ObservableArray.Changes" }

        /// Attaches `subscriber`: it receives the current contents (if any), then every
        /// change, as its demand allows (see ``Changes``).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            let subscription = ArrayChangeSubscription<Element>(
                channel: array.channel, demand: .none,
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: { subscriber.receive(completion: .finished) })
            subscriber.receive(subscription: subscription)
            subscription.register(array.storage)
        }

        /// Attaches a closure that receives the current contents as a changeset (unless
        /// the array is empty), then every change: the same as
        /// `Publisher.sink(receiveValue:)`, on a path with no generic subscriber.
        ///
        /// ```swift
        /// let c = board.tasks.changes.sink { print($0.changes) }
        /// board.tasks.append("write the spec")   // [.insert("write the spec", at: 0)]
        /// ```
        ///
        /// Called from main-actor code (`isolation`, filled in for you), the closure runs
        /// on the main queue only: at once when the change is made there, otherwise
        /// through the main queue, in order. From another actor it runs on that actor,
        /// asynchronously, in order, but for what the subscription sends at once (a
        /// current value), which it gets before this returns. From nonisolated code it
        /// runs on a thread that changes the array, or on the subscribing thread for the
        /// first changeset (and for changes made while that one is delivered), one call
        /// at a time.
        public func sink(
            isolation: isolated (any Actor)? = #isolation, receiveValue: @escaping (Output) -> Void
        ) -> AnyCancellable {
            // Nonisolated, the common case, straight to the sink: through
            // `CallerIsolation.sink`, generic over the value, the closure came out wrapped
            // in three reabstraction thunks, each called per changeset.
            if isolation == nil { return sinkOnSendingThread(receiveValue) }
            return CallerIsolation.sink(isolation, receiveValue) { sinkOnSendingThread($0) }
        }

        /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`).
        public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
            sinkOnSendingThread(receiveValue)
        }

        private func sinkOnSendingThread(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
            let sink = ArrayChangeSink<Element>(channel: array.channel, receiveValue: receiveValue)
            // The cancellable takes the sink's only reference; the sink knows its handle
            // before it registers, so that the channel finds it if the array goes.
            let cancellable = AnyCancellable(target: sink)
            sink.handle = Unmanaged.passUnretained(cancellable)
            if !sink.register(array.storage) { sink.endUnregistered() }
            return cancellable
        }
    }
}

extension ObservableArray.Changes: Sendable where Element: Sendable {}

/// One ``Subscriber`` of an ``ObservableArray``'s changes, with its demand (a `sink` is
/// an ``ArrayChangeSink``): the channel delivers it the changesets, and it passes them on
/// one at a time, in order, as demand allows.
///
/// Its changesets wait in `queue` and are delivered by whichever thread finds nobody
/// delivering (`draining`): the subscribing thread for the first changeset, the
/// channel's delivering thread for the next, a thread that requests more. So a change
/// made from inside a callback is delivered after the current changeset, by the same
/// loop, and nobody ever waits for a callback to return.
///
/// The first changeset is read, and the subscription registered, under the channel's
/// lock (``register(_:)``): the changes delivered after it are exactly those made after
/// it. While the subscribing thread has yet to deliver it, `draining` is set, so the
/// changes that arrive meanwhile wait behind it. (Not `Channel.add(_:initial:...)`: when
/// another thread is delivering, that delivers the initial value first and joins the
/// observer afterwards, so a change that another thread makes, and the delivering thread
/// delivers, in between never reaches it; fine where one isolation orders every change,
/// not for an array that any thread may change.)
@usableFromInline
final class ArrayChangeSubscription<Element>: ChannelObserver<PropertyEvent<CollectionChange<Element>>>,
    Subscription, CustomStringConvertible, @unchecked Sendable
{
    // `@unchecked Sendable`:
    // - `channel`: a `let` of a `Sendable` type.
    // - `queue`, `demand`, `draining`, `ended`, `receiveValue`, `receiveCompletion`: only
    //   touched with `lock` held. The closures are called without it, by the one thread
    //   that set `draining`, one call at a time.
    // - The base class's `slot` and `handle`: the channel's lock (see `ChannelObserver`).
    // Lock order: the channel's lock, then `lock` (taken inside `register`'s `accept`);
    // never the other way round.
    // `@usableFromInline`, with what a change touches: a change is delivered from code
    // specialized where the element type is known (``receiveChange(_:)``, which the
    // array's mutations call; see `ArrayChangeSubscriptionFlag`).
    @usableFromInline typealias Change = CollectionChange<Element>

    let channel: PropertyChannel<Change>
    // `@exclusivity(unchecked)` on the fields `lock` guards: it orders every access, and
    // no access spans a call (the closures are called after unlocking).
    @usableFromInline let lock = CompactLock()
    /// Changesets waiting for delivery, oldest first.
    @exclusivity(unchecked) @usableFromInline var queue: [Change] = []
    @exclusivity(unchecked) @usableFromInline var demand: Subscribers.Demand
    /// Set while a thread is delivering (or about to): only that thread takes from the
    /// queue and calls the closures.
    @exclusivity(unchecked) @usableFromInline var draining = false
    /// The array is gone: the completion follows what can still be delivered.
    @exclusivity(unchecked) @usableFromInline var ended = false
    /// `nil` once cancelled or finished: nothing more is delivered.
    @exclusivity(unchecked) @usableFromInline var receiveValue: ((Change) -> Subscribers.Demand)?
    @exclusivity(unchecked) @usableFromInline var receiveCompletion: (() -> Void)?

    init(
        channel: PropertyChannel<Change>, demand: Subscribers.Demand,
        receiveValue: @escaping (Change) -> Subscribers.Demand, receiveCompletion: (() -> Void)?
    ) {
        self.channel = channel
        self.demand = demand
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
        super.init(optionBits: ArrayChangeSubscriptionFlag.bit)
    }

    @usableFromInline var description: String { "ObservableArray.Changes" }

    /// Registers with the channel and delivers the first changeset; nothing happens if
    /// the subscription was cancelled already.
    func register(_ storage: ObservableArray<Element>.Storage) {
        var initial: [Element] = []
        var cancelled = false
        let added = channel.add(self, accept: {
            guard !channel.closed else { return false }
            cancelled = lock.withLock {
                guard receiveValue != nil else { return true }
                draining = true   // the first changeset goes first
                return false
            }
            if cancelled { return false }
            initial = storage.elements
            return true
        })
        guard added else {
            if !cancelled { sourceDidEnd() }
            return
        }
        if !initial.isEmpty {
            let first = Change.fromEmpty(to: initial)
            lock.withLock { if receiveValue != nil { queue.insert(first, at: 0) } }
        }
        drain()
    }

    override func receive(_ event: PropertyEvent<Change>) {
        guard !event.isPrior, let change = event.new else { return }
        receiveChange(change)
    }

    /// Delivers `change` at once if nothing waits and nobody is delivering (the common
    /// case: no queue traffic), else queues it, and delivers it unless another thread is
    /// delivering.
    @inlinable
    final func receiveChange(_ change: Change) {
        lock.lock()
        if !draining, queue.isEmpty, demand > .none, let deliver = receiveValue {
            draining = true
            demand -= 1
            lock.unlock()
            let more = deliver(change)
            lock.lock()
            if more > .none { demand += more }
            if queue.isEmpty, !ended {
                draining = false
                lock.unlock()
                return
            }
            lock.unlock()
            drain()   // what arrived meanwhile; `draining` is still set
            return
        }
        queueChange(change)
    }

    /// ``receiveChange(_:)`` when the change must wait: queues it (the lock is held on
    /// entry) and delivers what waits unless another thread is delivering.
    @inlinable
    final func queueChange(_ change: Change) {
        var superseded: [Element]?   // released after unlocking
        guard receiveValue != nil else {
            lock.unlock()
            return
        }
        if demand == .none, !queue.isEmpty {
            // No demand: merged with the last one waiting, so that waiting costs one changeset.
            superseded = queue[queue.count - 1].collection
            queue[queue.count - 1].collection = change.collection
            queue[queue.count - 1].changes.append(contentsOf: change.changes)
        } else {
            queue.append(change)
        }
        let start = !draining
        draining = true
        lock.unlock()
        withExtendedLifetime(superseded) {}
        if start { drain() }
    }

    /// Delivers what waits, as demand allows, then the completion if the array is gone.
    /// Called by the thread that set `draining`.
    @inlinable
    final func drain() {
        while true {
            lock.lock()
            if let deliver = receiveValue, demand > .none, !queue.isEmpty {
                let change = queue.removeFirst()
                demand -= 1
                lock.unlock()
                let more = deliver(change)
                if more > .none { lock.withLock { demand += more } }
                continue
            }
            if ended, receiveValue != nil {
                let completion = receiveCompletion
                let dropped = (receiveValue, queue)
                receiveValue = nil
                receiveCompletion = nil
                queue = []
                lock.unlock()   // `draining` stays set: nothing more is delivered
                completion?()
                withExtendedLifetime(dropped) {}
                return
            }
            draining = false
            lock.unlock()
            return
        }
    }

    @usableFromInline func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        self.demand += demand
        guard !draining, receiveValue != nil, !queue.isEmpty else {
            lock.unlock()
            return
        }
        draining = true
        lock.unlock()
        drain()
    }

    @usableFromInline func cancel() {
        lock.lock()
        let dropped = (receiveValue, receiveCompletion, queue)
        receiveValue = nil
        receiveCompletion = nil
        queue = []
        lock.unlock()
        guard dropped.0 != nil else { return }
        channel.remove(self)
        withExtendedLifetime(dropped) {}
    }

    override func cancelFromHandle() { cancel() }

    /// The array is gone (the channel closed): deliver what can be, then finish.
    override func sourceDidEnd() {
        lock.lock()
        guard receiveValue != nil, !ended else {
            lock.unlock()
            return
        }
        ended = true
        if draining {
            lock.unlock()
            return
        }
        draining = true
        lock.unlock()
        drain()
    }
}

/// The bit of ``ChannelObserver/optionBits`` that marks an ``ArrayChangeSubscription``,
/// which an array's mutation then calls with no dynamic cast.
@usableFromInline
enum ArrayChangeSubscriptionFlag {
    @inlinable static var bit: UInt8 { 0x10 }
}

extension ObservableArray {
    /// Delivers a changeset sent at once to `observer`, as ``call(_:_:)`` does, from the
    /// sender's variables (see ``mutate(_:)``): the event is made only for an observer
    /// that takes one.
    @inlinable @inline(__always)
    static func callChange(
        _ observer: ChannelObserver<PropertyEvent<CollectionChange<Element>>>, _ change: CollectionChange<Element>,
        indexed: IndexedChange?
    ) {
        let bits = observer.optionBits
        if bits & ValueObserverFlag.bit != 0 {
            unsafeDowncast(observer, to: ArrayChangeSink<Element>.self).receiveChange(change)
        } else if bits & ArrayChangeSubscriptionFlag.bit != 0 {
            unsafeDowncast(observer, to: ArrayChangeSubscription<Element>.self).receiveChange(change)
        } else if bits & DependencyLinkFlag.bit != 0 {
            // A key path's link (`\.tasks`, `\.tasks.count`): it takes the indexed change
            // alone, so no event is made (through `receive(_:)`, the link's unspecialized
            // code looked up the event's metadata at each change). Never a forwarding
            // link: only an `@Observed` property ends a forwarded chain.
            unsafeDowncast(observer, to: DependentObserver<CollectionChange<Element>>.self)
                .pass(isPrior: false, indexed: indexed, held: true)
        } else {
            observer.receive(PropertyEvent(isPrior: false, old: nil, new: change, indexed: indexed))
        }
    }

    /// Delivers a changeset to `observer`: a `sink` (``ArrayChangeSink``) or an
    /// ``ArrayChangeSubscription`` straight from this code, specialized where it is
    /// inlined; any other observer through its `receive(_:)`.
    @inlinable @inline(__always)
    static func call(_ observer: ChannelObserver<PropertyEvent<CollectionChange<Element>>>, _ event: PropertyEvent<CollectionChange<Element>>) {
        if !event.isPrior, let change = event.new {
            callChange(observer, change, indexed: event.indexed)
        } else {
            observer.receive(event)
        }
    }
}
