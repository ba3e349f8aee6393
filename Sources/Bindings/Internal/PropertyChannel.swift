import Synchronization

/// What an observed property's channel carries: a change, or (for `.prior` observers) a
/// notice that a change is about to happen.
@usableFromInline
struct PropertyEvent<Value> {
    /// `true` for the notice sent before a change.
    @usableFromInline let isPrior: Bool
    /// The value before the change; present when some observer asked for old values
    /// (`.old` or `.prior`), always for a prior notice.
    @usableFromInline let old: Value?
    /// The value after the change; `nil` for a prior notice.
    @usableFromInline let new: Value?
    /// An indexed-collection change announced by hand, or `nil` for a set.
    @usableFromInline let indexed: IndexedChange?

    @inlinable
    init(isPrior: Bool, old: Value?, new: Value?, indexed: IndexedChange? = nil) {
        self.isPrior = isPrior
        self.old = old
        self.new = new
        self.indexed = indexed
    }

    /// Not a change: sent to one ``PropertySubscription`` alone, in order with the
    /// changes, to deliver the value it owes its subscriber's first demand. The only
    /// prior notice without an old value (a real one always carries it), so that telling
    /// it apart costs the changes nothing.
    @usableFromInline
    static var flush: PropertyEvent { PropertyEvent(isPrior: true, old: nil, new: nil) }
}

/// An indexed-collection change (`.insertion`, `.removal`, `.replacement`) that a model
/// announced with `willChange(_:valuesAt:for:)` and `didChange(_:valuesAt:for:)`,
/// carried with the events of that key path so that a change handler gets its kind, its
/// indexes and the elements involved, as with Foundation's KVO.
@usableFromInline
final class IndexedChange: @unchecked Sendable {
    // `@unchecked Sendable`: every field is a `let`; `key`, `oldElements` and
    // `newElements` are not `Sendable` and cross threads with the event, as its values do.
    @usableFromInline let kind: KeyValueChange
    @usableFromInline let indexes: RangeSet<Int>
    /// The key path and object it was announced for: only their observation passes it on.
    /// No key: a change of an observable collection (`object`), which the observation of
    /// a key path whose value is that collection passes on.
    @usableFromInline let key: AnyKeyPath?
    @usableFromInline let object: ObjectIdentifier
    /// The elements at `indexes` before the change (removal, replacement), as the
    /// collection type of the key path.
    @usableFromInline let oldElements: Any?
    /// The elements at `indexes` after the change (insertion, replacement).
    @usableFromInline let newElements: Any?

    @usableFromInline
    init(kind: KeyValueChange, indexes: RangeSet<Int>, key: AnyKeyPath?, object: ObjectIdentifier,
         oldElements: Any?, newElements: Any?) {
        self.kind = kind
        self.indexes = indexes
        self.key = key
        self.object = object
        self.oldElements = oldElements
        self.newElements = newElements
    }

    /// Not an indexed change: the value before a set of a key path notified by hand
    /// (`willChangeValue(for:)`), for the observation of exactly that key path of that
    /// object, whose old value it is (its evaluation sees only the value after). The
    /// observation takes the value, and passes no indexed change on.
    static func setting(from old: Any, key: AnyKeyPath, object: AnyObject) -> IndexedChange {
        IndexedChange(
            kind: .setting, indexes: RangeSet(), key: key, object: ObjectIdentifier(object),
            oldElements: old, newElements: nil)
    }
}

/// The channel of one observable value: an `@Observed` property of one object, an
/// ``ObservableValue``, a derived key path (computed or chained), or a key path that a
/// model notifies by hand.
///
/// It knows how to read the current value (for `.initial`), and counts the observers
/// that need old values or prior notices, so that a set with nobody asking pays for
/// neither.
@usableFromInline
final class PropertyChannel<Value>: Channel<PropertyEvent<Value>>, DependencySource, @unchecked Sendable {
    // `@unchecked Sendable` (the base class documents its own fields):
    // - `read`, `ownerID`, `isStoredProperty`: `let`s; `read` is called only under the
    //   lock.
    // - `derivedInterest`, `isDerived`: set once, by `DerivedObservation.makeChannel`
    //   before the channel is shared; `linksWantOld` likewise, by `ObservableArray`.
    // - `batchEntry`, `propertyName`: see their comments.
    // - `key`: set in `init`, or for an `@Observed` property's channel once (`learnKey`)
    //   under its model's `ChannelCreation` lock, which every read of it then takes.
    // - `closed`: only touched with the channel's lock held.
    // - `oldWanted`, `priorWanted`: atomics.
    // `@exclusivity(unchecked)`: the same lock or isolation orders each access (dynamic
    // checks measured ~40% of a notification).

    /// Reads the current value, or `nil` when its object is gone. Called only under the
    /// lock while the channel is open (see ``currentValue()``).
    @usableFromInline let read: () -> Value?
    /// The key path this channel stands for, once known, so that observing exactly that
    /// key path observes this channel directly. An `@Observed` property's channel learns
    /// it at the first tracked read of the property, under its model's creation lock
    /// (see `Observed.channel(of:storage:wrapped:)`), which ``stands(for:owner:)`` takes
    /// to read it; a hand-notified key path's channel is given it before it is shared.
    @exclusivity(unchecked) @usableFromInline var key: AnyKeyPath?
    /// For an `@Observed` property's channel, its model's type and the property's name
    /// (`Person.name`), learnt with ``key`` and guarded as it is: what names the property
    /// in a message.
    @exclusivity(unchecked) @usableFromInline var propertyName: String?

    /// Reports a read of the value to a dependency tracking under way on this thread (a
    /// computed key path being evaluated, a reaction's run), as an `@Observed` getter
    /// does: for sources read through a method of their own (`ObservableValue`,
    /// `ObservableArray`). One thread-local load when the thread does not track.
    @inlinable @inline(__always)
    func trackRead() {
        let session = DependencyTracking.currentSession
        if _slowPath(session != nil) {
            DependencyTracking.record(ObjectIdentifier(self), into: session!) { self }
        }
    }

    /// The property's name (``propertyName``), or its key path, for messages.
    override var nameForMessages: String {
        if let propertyName { return propertyName }
        if let key { return "\(key)" }
        return isDerived ? "a key path" : "an observable value"
    }

    /// The object the channel belongs to (an `@Observed` property's model), which tells a
    /// direct observation of an `@Observed` property apart from a computed one.
    @usableFromInline let ownerID: ObjectIdentifier?

    /// Set once the source is gone; guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var closed = false

    /// Whether this is an `@Observed` property's channel, whose sets all go through
    /// ``sendChange(old:new:)``, so that ``version`` tells whether a ``Snapshot`` is current.
    @usableFromInline let isStoredProperty: Bool
    // The count of changes sent, `version`, is the base class's (``ChangeCount``): it
    // tells whether a ``Snapshot`` is current, and a chain's forwarding link reads it
    // for channels of any value type (see `DependentObserver.forward`).

    /// The value of an `@Observed` property, or of a derived key path, as an observer
    /// read it where reading it costs little (`$property`, and the evaluation that
    /// resolves a key path); it gives the observer its initial value if no change was
    /// sent since (same ``version``), which spares reading the model again through a key
    /// path at run time (~100 ns). For a derived key path this holds because the
    /// observer is made right after the read, on the model's isolation, before anything
    /// can change it.
    @usableFromInline
    struct Snapshot {
        @usableFromInline let value: Value
        @usableFromInline let version: UInt

        @inlinable
        init(value: Value, version: UInt) {
            self.value = value
            self.version = version
        }
    }

    @usableFromInline let oldWanted = Atomic<Int>(0)
    @usableFromInline let priorWanted = Atomic<Int>(0)
    /// The observation behind a derived channel (computed or chained key path), told
    /// when observers come and go so that it tracks the model only while observed;
    /// `nil` for every other channel.
    ///
    /// `unowned(unsafe)`: the channel owns the observation (its `read` closure holds
    /// it), so the observation lives as long as the channel; a weak reference would cost
    /// an atomic load and a retain at every subscribe and cancel. Set once, before the
    /// channel is shared.
    @exclusivity(unchecked) @usableFromInline unowned(unsafe) var derivedInterest: (any DerivedInterest)? {
        didSet { isDerived = derivedInterest != nil }
    }
    /// Whether a derived observation's link counts as an observer wanting old values
    /// (``wantsOld``), so that the source can tell whether any key path depends on it: an
    /// `ObservableArray` makes the indexed change of a model's `\.tasks` only then. Set
    /// once, before the channel is shared.
    @usableFromInline var linksWantOld = false
    /// Whether the channel's changes reach its observers at once even inside a batch,
    /// which does not hold them (an `ObservableArray`'s, whose `changes` subscribers get
    /// every changeset at once, and an `ObservableValue`'s). The links of key paths that depend on it hold the change
    /// for the batch's flush instead, so that those key paths and reactions are evaluated
    /// once, with everything else the batch changed. Set once, before the channel is
    /// shared.
    @usableFromInline var notifiesInBatches = false
    /// The channel's change held back by a batch, made by its first batch and reused;
    /// touched only by the thread that sets the model, in a batch (see ``BatchContext``).
    /// Retained: the channel owns it, and releases it in its deinit.
    @exclusivity(unchecked) @usableFromInline var batchEntry: Unmanaged<ChannelBatchEntry<Value>>?
    /// Whether `derivedInterest` is set: the check that subscribing and cancelling make,
    /// a byte load where loading the reference itself would retain and release it.
    @exclusivity(unchecked) @usableFromInline var isDerived = false

    /// A channel whose current value `read` gives, with no model (an ``ObservableValue``,
    /// a derived key path, a hand-notified key path, whose `key` is given).
    @usableFromInline
    init(key: AnyKeyPath?, ownerID: ObjectIdentifier?, read: @escaping () -> Value?) {
        self.ownerID = ownerID
        self.read = read
        isStoredProperty = false
        self.key = key
        super.init()
    }

    /// The channel of an `@Observed` property of the object `ownerID` names; `read`
    /// reads the stored value (see `Observed.channel(of:storage:projected:)` for why it may).
    @usableFromInline
    init(ownerID: ObjectIdentifier, read: @escaping () -> Value?) {
        self.ownerID = ownerID
        self.read = read
        isStoredProperty = true
        super.init()
    }

    deinit { batchEntry?.release() }

    /// The last key path object found equal to `key` (a literal at an observing call
    /// site is one object, made once), so that the next look-up from there compares
    /// identities, not components; guarded as `key` is.
    @exclusivity(unchecked) @usableFromInline var lastMatch: AnyKeyPath?

    /// Whether this is the channel of exactly `keyPath` of `owner` (its model).
    @usableFromInline
    func stands(for keyPath: AnyKeyPath, owner: AnyObject) -> Bool {
        guard isStoredProperty else { return key == keyPath }
        return ChannelCreation.withLock(for: owner) {
            if lastMatch === keyPath { return true }
            guard key == keyPath else { return false }
            lastMatch = keyPath
            return true
        }
    }

    /// The current value: `snapshot`'s if it is still current, else what `read` gives.
    /// Call it under the lock, while open.
    @inlinable
    func currentValue(_ snapshot: Snapshot? = nil) -> Value? {
        if let snapshot, isStoredProperty || isDerived, snapshot.version == version { return snapshot.value }
        return read()
    }

    @inlinable
    var wantsOld: Bool { oldWanted.load(ordering: .relaxed) > 0 }

    @inlinable
    var wantsPrior: Bool { priorWanted.load(ordering: .relaxed) > 0 }

    /// Registers an observer with its needs, delivering the current value first when
    /// `initial` is set. Returns `false`, registering nothing, once the channel is closed.
    @inlinable @discardableResult
    func add(
        _ observer: ChannelObserver<PropertyEvent<Value>>, needsOld: Bool, needsPrior: Bool, initial: Bool,
        snapshot: Snapshot? = nil
    ) -> Bool {
        if needsOld || needsPrior { oldWanted.add(1, ordering: .relaxed) }
        if needsPrior { priorWanted.add(1, ordering: .relaxed) }
        // Under the lock, open (so the model is alive): see `fillHeldOld`.
        let fills = (needsOld || needsPrior) && batchEntry != nil && BatchContext.isActive
        let added = initial
            ? add(observer, initial: { PropertyEvent(isPrior: false, old: nil, new: currentValue(snapshot)) },
                  accept: {
                      if closed { return false }
                      if fills { fillHeldOld(snapshot) }
                      return true
                  }, calling: Self.call)
            : add(observer, accept: {
                if closed { return false }
                if fills { fillHeldOld(snapshot) }
                return true
            })
        if !added {
            if needsOld || needsPrior { oldWanted.subtract(1, ordering: .relaxed) }
            if needsPrior { priorWanted.subtract(1, ordering: .relaxed) }
        }
        return added
    }

    /// An observer wanting old values joins while this thread's batch holds a change of
    /// the channel whose old value nobody wanted at its first set (so none was kept): the
    /// value now, which this observer sees as it joins, stands in for it (and for later
    /// observers that join the same way). Only for an entry waiting in this thread's
    /// batch (the entry's flush is this context's), which alone touches it; under the
    /// channel's lock, while the channel is open, so the model is alive, as for an
    /// initial value. Registering reads the model, on its isolation.
    @usableFromInline
    func fillHeldOld(_ snapshot: Snapshot?) {
        guard let entry = batchEntry, let flush = BatchContext.withCurrent({ $0.flush }) else { return }
        entry._withUnsafeGuaranteedRef { entry in
            if entry.isWaiting, entry.flush == flush, entry.old == nil { entry.old = currentValue(snapshot) }
        }
    }

    /// The source is gone: refuse new observers, tell the registered ones (outside the
    /// lock) that nothing more will come, and release them.
    @usableFromInline
    func close() {
        withLock { closed = true }
        let (observers, released) = removeAll()
        for observer in observers { observer.sourceDidEnd() }
        // During a delivery, one of them may be the callback running now: its removal,
        // and its release, wait for the current event (see `removeAll()`).
        for unmanaged in released { unmanaged.release() }
    }

    /// Unregisters an observer added with ``add(_:needsOld:needsPrior:initial:)``; the
    /// caller guarantees it runs once per observer.
    @inlinable
    func remove(_ observer: ChannelObserver<PropertyEvent<Value>>, needsOld: Bool, needsPrior: Bool) {
        if needsOld || needsPrior { oldWanted.subtract(1, ordering: .relaxed) }
        if needsPrior { priorWanted.subtract(1, ordering: .relaxed) }
        remove(observer)
    }

    /// Sends a change. `old` is dropped unless someone asked for it.
    ///
    /// Inlined into the setter, where `Value` is concrete: a `sink` observer
    /// (``ValueObserver``) gets the value straight from this specialized loop, since its
    /// `receive(_:)`, called through the class's vtable, would run generic code.
    ///
    /// Inside `batchChanges` on this thread, an observed change is held for the end of the
    /// batch instead (see ``BatchContext``); the check costs one relaxed load otherwise.
    @inlinable
    func sendChange(old: Value?, new: Value) {
        countChange()
        if !isObserved { return }
        if _slowPath(BatchContext.isActive), BatchContext.intercept(self, old: old, new: new) { return }
        deliverChange(old: old, new: new, indexed: nil, objectHeld: true)
    }

    /// ``sendChange(old:new:)`` by a thread that does not hold the channel's object: a
    /// change of a chain's last property, forwarded to the chain's channel (see
    /// `DependentObserver.forward`), whose caller holds the last property's model, not
    /// the chain's root. Observers are called as by ``callWithoutHolding(_:_:)``: a
    /// change handler and a dependency link load the root weakly themselves, a `sink`
    /// needs no root at all (so the forward makes no weak load for it).
    @inlinable
    func sendChangeWithoutHolding(old: Value?, new: Value) {
        countChange()
        if !isObserved { return }
        deliverChange(old: old, new: new, indexed: nil, objectHeld: false)
    }

    /// Delivers a change at once, or queues it (see `Channel.send(queuing:callingEach:)`):
    /// each observer gets `old` and `new` as they are, through ``callChange``; the event is
    /// made only if the change must wait. The sends of a change share it.
    @inlinable @inline(__always)
    func deliverChange(old: Value?, new: Value, indexed: IndexedChange?, objectHeld: Bool) {
        send(queuing: { PropertyEvent(isPrior: false, old: old, new: new, indexed: indexed) }) { observer in
            Self.callChange(observer, old: old, new: new, indexed: indexed, objectHeld: objectHeld)
        }
    }

    /// Sends a change that carries an indexed-collection change announced by hand (a
    /// separate entry point: passing a `nil` reference through the setter's path costs a
    /// retain and a release per set).
    ///
    /// Inside `batchChanges`, held like any change: the batch delivers one change from the
    /// value before it to the value after it, which no single indexed change describes.
    @inlinable
    func sendChange(old: Value?, new: Value, indexed: IndexedChange) {
        countChange()
        if !isObserved { return }
        if _slowPath(BatchContext.isActive), BatchContext.intercept(self, old: old, new: new) { return }
        deliverChange(old: old, new: new, indexed: indexed, objectHeld: true)
    }

    /// Delivers `event` to `observer`: a ``ValueObserver`` or a ``ChangeObserver``
    /// (marked by a bit, so no dynamic cast) straight from this code, specialized where
    /// it is inlined, and a ``PropertyValueReceiver`` the new value of a change; any
    /// other observer (or event) through its `receive(_:)`.
    ///
    /// Contract: used only for deliveries made at once by a thread that holds the
    /// channel's object (its model) for the whole call: a set (the setter, whose caller
    /// holds the model), `didChangeValue(for:)` and its kin (methods of the model), a
    /// derived observation's change (which holds its root until the send returns; not a
    /// chain's forwarded change, see ``sendChangeWithoutHolding(old:new:)``), and a
    /// registration's initial value (`observe` is a method of the model). So a change
    /// handler is given its object from here with no weak load (`deliverWhileHeld`).
    /// Queued events, which another thread may deliver, go through `receive(_:)`, which
    /// loads the object weakly. (A set made in the model's own `deinit` delivers the same
    /// way: a change handler is then given the model being destroyed, which it must not
    /// keep, as with a direct observer of the property.) `ObservableValue` passes it too, and has no change
    /// handlers.
    @inlinable @inline(__always)
    static func call(_ observer: ChannelObserver<PropertyEvent<Value>>, _ event: PropertyEvent<Value>) {
        call(observer, event, objectHeld: true)
    }

    /// ``call(_:_:)`` for a delivery made by a thread that does not hold the channel's
    /// object (a batch's flush, see ``BatchContext``): a change handler goes through
    /// `receive(_:)`, which loads the object weakly, and a dependency link tells its
    /// observation that the root is not held; a `sink` gets its value as from `call`.
    @inlinable @inline(__always)
    static func callWithoutHolding(_ observer: ChannelObserver<PropertyEvent<Value>>, _ event: PropertyEvent<Value>) {
        call(observer, event, objectHeld: false)
    }

    /// The two above, one body: always inlined with `objectHeld` a constant, so each
    /// keeps only its own branches.
    @inlinable @inline(__always)
    static func call(_ observer: ChannelObserver<PropertyEvent<Value>>, _ event: PropertyEvent<Value>, objectHeld: Bool) {
        if !event.isPrior, let new = event.new {
            callChange(observer, old: event.old, new: new, indexed: event.indexed, objectHeld: objectHeld)
            return
        }
        // A prior notice: a `sink` takes none, a change handler takes it whole, a
        // dependency link passes it on (see `DependentObserver`), and any other observer
        // gets it through `receive(_:)`.
        let bits = observer.optionBits
        if bits & ValueObserverFlag.bit != 0 { return }
        if objectHeld, bits & ChangeObserverFlag.bit != 0 {
            callChangeObserver(unsafeDowncast(observer, to: ChangeObserver<Value>.self), event)
        } else if bits & DependencyLinkFlag.bit != 0 {
            // The fields read here, where `Value` is known (see `DependentObserver`).
            unsafeDowncast(observer, to: DependentObserver<Value>.self)
                .pass(isPrior: event.isPrior, indexed: event.indexed, held: objectHeld)
        } else {
            observer.receive(event)
        }
    }

    /// Delivers a change to `observer`, given its fields, as they are in the sender's
    /// variables for a change sent at once (``sendChange(old:new:)``): no event is made,
    /// so the value is not copied, except for the observers that take an event (change
    /// handlers, and any other observer's `receive(_:)`). Also the change branch of
    /// ``call(_:_:objectHeld:)``. Always inlined, with `objectHeld` a constant.
    @inlinable @inline(__always)
    static func callChange(
        _ observer: ChannelObserver<PropertyEvent<Value>>, old: Value?, new: Value, indexed: IndexedChange?,
        objectHeld: Bool
    ) {
        let bits = observer.optionBits
        if bits & ValueObserverFlag.bit != 0 {
            unsafeDowncast(observer, to: ValueObserver<Value>.self).receiveValue(new)
        } else if objectHeld, bits & ChangeObserverFlag.bit != 0 {
            callChangeObserver(
                unsafeDowncast(observer, to: ChangeObserver<Value>.self),
                PropertyEvent(isPrior: false, old: old, new: new, indexed: indexed))
        } else if bits & DependencyLinkFlag.bit != 0 {
            // The fields read here, where `Value` is known (see `DependentObserver`).
            let link = unsafeDowncast(observer, to: DependentObserver<Value>.self)
            if let target = link.forwardTarget {
                DependentObserver.forward(new, to: target, from: link)
            } else {
                link.pass(isPrior: false, indexed: indexed, held: objectHeld)
            }
        } else if observer.isPropertyValueReceiver {
            // A `PropertySubscription` (`publisher(for:)` with any subscriber): its value
            // taken out here, where `Value` is known.
            unsafeDowncast(observer, to: PropertyValueReceiver<Value>.self).receiveNew(new)
        } else {
            observer.receive(PropertyEvent(isPrior: false, old: old, new: new, indexed: indexed))
        }
    }

    /// The ``ChangeObserver`` branch of ``call(_:_:)``, out of line: a
    /// `KeyValueObservedChange` holds a `RangeSet`, whose size is known only at run
    /// time, so building one costs a metadata look-up that the other branches must not
    /// pay. Still specialized where `call` is.
    @inlinable @inline(never)
    static func callChangeObserver(_ observer: ChangeObserver<Value>, _ event: PropertyEvent<Value>) {
        let options = KeyValueObservingOptions(rawValue: UInt(observer.optionBits & 0x0F))
        if let change = ChangeObserver<Value>.change(for: event, options: options) {
            observer.deliverWhileHeld(change)
        }
    }

    /// Sends the notice that precedes a change.
    /// Inside `batchChanges`, only the notice before a channel's first change in the
    /// batch goes out (see ``BatchContext/allowsPrior(_:)``).
    @inlinable
    func sendPrior(old: Value, indexed: IndexedChange? = nil) {
        // A channel that batches do not hold (an `ObservableArray`'s, edited from any
        // thread) keeps no batch entry: the derived channels its prior notices reach
        // pass them once per batch themselves.
        if _slowPath(BatchContext.isActive), !notifiesInBatches, !BatchContext.allowsPrior(self) { return }
        send(PropertyEvent(isPrior: true, old: old, new: nil, indexed: indexed))
    }
}
