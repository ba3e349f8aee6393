import Synchronization

/// Observes a key path that is not a single `@Observed` property: a computed property
/// (`\.fullName`), a chain through observed objects (`\.address.city`), or a key path
/// with declared or hand-notified dependencies.
///
/// It evaluates the key path while tracking which observable storage the evaluation
/// reads, registers with each of those channels, and after every change evaluates again
/// and re-registers with what was read this time: a computed property that switches
/// dependencies, or a chain whose intermediate object was replaced, follows along. It
/// publishes the results through its own channel.
///
/// One instance serves every observer of the same key path on the same object (see
/// ``ObservationTarget``): each change is evaluated once and reaches all of them through
/// one channel, in order, so that an observer that sets the model from its callback
/// cannot make another one skip a value (SPEC section 6). (Two threads that make the
/// first observers of one key path of one object at the same moment may each make an
/// observation: a look-up finds an observation only once an observer activated it.)
///
/// Lifetime: the channel holds this object (its `read` closure does), and every
/// observer holds the channel. While some observer exists (``addInterest(prior:old:)``)
/// the observation is active: its links with the dependencies hold it, and it holds its
/// channel (``channel``), as each link does too (`DependentObserver.keeper`: a change,
/// which only a link's delivery runs, uses the channel unretained). When the last
/// observer goes:
/// - if some dependency is an `@Observed` property of the root (``linkedToRoot``), the
///   observation stays as it is, idle, until the next change of a dependency or the end
///   of the root, whichever comes first. Observers of a key path often come and go one
///   after another with no change in between (a view that rebinds, a cell reused for
///   the same model): the next one finds the observation up to date, with nothing to
///   evaluate or link. The first change leaves the dependencies (from then on a set of
///   the model reaches nothing) and lets go of the channel; the end of the root closes
///   the property's channel, which ends the observation.
/// - otherwise it leaves its dependencies at once and lets go of the channel.
/// A dormant observation (one that left) lives until its channel goes with its last
/// reference; another observer of the channel activates it again. When its root object
/// is gone it ends for good and closes its channel, which completes and releases the
/// observers.
///
/// A chain of `@Observed` properties (`\.child.value`) needs no evaluation when its last
/// property changes: the link with that property sends the change on to the channel as
/// it is (see ``forwardableTail(of:root:)``). Only a change of an earlier property of the
/// chain evaluates the key path and follows the new objects.
///
/// A change that a property of the root itself delivers at once comes from a set on the
/// root, whose caller holds it: the observation then uses ``heldRoot`` with no weak load,
/// which for a model with weak references costs a slow retain and release.
///
/// `@usableFromInline`, with the members that a change touches: the work of a change is
/// inlined, specialized for the model's types, where the key path is observed (see
/// ``DerivedSpecialization``).
@usableFromInline
final class DerivedObservation<Root: KeyValueObservable, Value>: DependentHandler,
    DerivedInterest, @unchecked Sendable
{
    // `@unchecked Sendable`:
    // - `keyPath`, `affecting`, `manualSources`, `change`, `lock`, `heldRoot`,
    //   `rootID`: `let`s; `root`: a `weak let` (weak references are loaded atomically by
    //   the runtime). `heldRoot` is used only while a caller holds the root (see above).
    // - `ownChannel`: set once by `makeChannel` before the observation is shared.
    // - `channel`: only touched with `lock` held.
    // - `links`, `priorLinks`, `interest`, `priorInterest`,
    //   `active`, `ended`, `generation`, `tracked`, `primedSources`, `linkedToRoot`,
    //   `forwardingSource`, `batchMark`: only touched with `lock` held.
    // - `lastValue`: a `let`, a class that documents its own state.
    // - `untracked`, `suggestAnchor`: `let`s; `sawChange`: atomic.
    // `@exclusivity(unchecked)` on the `var`s that every change touches (`active`,
    // `ended`, `tracked`, `channel`, `interest`) and those that every observer's arrival
    // and departure touches (`priorInterest`, `priorLinks`, `primedSources`,
    // `linkedToRoot`): `lock` orders them, and no access spans a call that could touch
    // them again. (Checked, each was a call to `swift_beginAccess`, about 4 ns, and a
    // subscription to a computed key path made several.) The others change only when the
    // dependencies do.

    @usableFromInline weak let root: Root?
    /// The root, unretained: used only for a change delivered at once by a set on the
    /// root (`rootHeld`), whose caller holds the root until the delivery returns.
    @usableFromInline let heldRoot: Unmanaged<Root>
    /// The root's identity, which outlives it.
    @usableFromInline let rootID: ObjectIdentifier
    @usableFromInline let keyPath: KeyPath<Root, Value>
    @usableFromInline let affecting: [AnyKeyPath]
    /// Whether the value may be observable storage of its own (an `ObservableArray`),
    /// which each evaluation then records as read (see `ObservableStorage`).
    @usableFromInline let valueMayBeStorage = DependencyTracking.mayBeStorage(Value.self)
    /// The identity and the source of the storage that a value is, `nil` if it is none
    /// (see ``StorageReader``); used only when ``valueMayBeStorage``. Not optional, nor in
    /// a struct: a closure bound out of either is retained and released around each call.
    @usableFromInline let storageIdentity: (Value) -> ObjectIdentifier?
    @usableFromInline let storageSource: (Value) -> (any DependencySource)?
    /// The hand-notified channels of the key path and of those affecting it; fixed.
    private let manualSources: [any DependencySource]
    /// The channel, unretained: it owns this object. Used only by ``addInterest(prior:old:)``,
    /// whose caller (an observer being made) holds the channel, and by a change, whose
    /// link holds it (see `DependentObserver.keeper`).
    @exclusivity(unchecked) @usableFromInline var ownChannel: Unmanaged<PropertyChannel<Value>>?
    /// The channel, held while the observation is active (idle included), so that changes
    /// reach it without a weak load (a weak reference would also make every retain of
    /// the channel a slow one) and the next observer of the key path finds it. The cycle
    /// this makes with the channel ends when the observation leaves its dependencies.
    @exclusivity(unchecked) @usableFromInline var channel: PropertyChannel<Value>?
    /// A change's work: specialized for `Root` and `Value` when the observer that made
    /// this observation provided it, the generic ``didChange(indexed:rootHeld:evaluate:)``
    /// otherwise; fixed. Not optional: a closure bound out of an optional `let` is
    /// retained and released around each call, which a `let` closure called through its
    /// object is not.
    private let change: (DerivedObservation, IndexedChange?, Bool) -> Void

    @usableFromInline let lock = CompactLock()
    /// The links that carry the dependencies' changes, by source.
    private var links: [ObjectIdentifier: any DependencyLink] = [:]
    /// The links that carry their prior notices, while some observer wants them.
    @exclusivity(unchecked) private var priorLinks: [ObjectIdentifier: any DependencyLink] = [:]
    /// Whether the key path read no `@Observed` storage and declares no dependency when
    /// this was made: only a hand notification can bring it a change. If none came by
    /// the end (``sawChange``), the deinit says so, once per key path: said at the
    /// start, it would be false for a key path that the model notifies by hand later.
    private let untracked: Bool
    /// Whether the model has no anchor, for the warning's advice; fixed.
    private let suggestAnchor: Bool
    /// Set by the first change or prior notice that reaches the observation.
    private let sawChange = Atomic<Bool>(false)
    /// The last value, for observers that want old values; shared with a forwarding link
    /// (see ``forwardableTail(of:root:)``).
    @usableFromInline let lastValue = LastValue<Value>()
    /// Observers that exist (registered or about to be), and those of them wanting `.prior`.
    @exclusivity(unchecked) @usableFromInline var interest = 0
    @exclusivity(unchecked) private var priorInterest = 0
    /// Whether some link is with an `@Observed` property of the root, whose channel
    /// closes when the root deinitialises: what lets the observation stay idle.
    @exclusivity(unchecked) private var linkedToRoot = false
    /// The source whose change link forwards (see ``forwardableTail(of:root:)``), and the
    /// versions of the chain's earlier properties that the link was made for.
    private var forwardingSource: ObjectIdentifier?
    private var forwardingVersions: [UInt] = []
    @exclusivity(unchecked) @usableFromInline var active = false
    @exclusivity(unchecked) @usableFromInline var ended = false
    /// Changes whenever the links are dropped wholesale (dormant, ended), so that a relink
    /// running meanwhile knows that what it attached is no longer wanted.
    private var generation = 0
    /// What the last evaluation read (the key path and those affecting it; each once, in
    /// order), which the links follow: the next evaluation expects the same reads, and
    /// when it gets them it allocates nothing and leaves the links alone.
    @exclusivity(unchecked) @usableFromInline var tracked: [any DependencySource] = []
    /// What the evaluation that created this object read, used by the first activation
    /// instead of evaluating again.
    @exclusivity(unchecked) private var primedSources: [any DependencySource]?
    /// Its evaluations in the current flush of a batch (see `BatchContext`).
    @exclusivity(unchecked) private var batchMark = BatchMark()

    /// Makes the observation and its channel; `sources` and `value` come from the
    /// evaluation the caller just made while tracking. Returns the channel, which owns
    /// the observation; it stays dormant until an observer is created for the channel.
    static func makeChannel(
        root: Root, keyPath: KeyPath<Root, Value>, affecting: [AnyKeyPath],
        sources: [any DependencySource], value: Value, specialization: DerivedSpecialization<Root, Value>?,
        untracked: Bool = false
    ) -> (PropertyChannel<Value>, DerivedObservation) {
        // Not `specialization.map { $0.change }`, nor `??` in the initializer: through
        // generic code, the closure is stored wrapped in reabstraction thunks, a pair per
        // generic function it passed through, and each change called through four of
        // them (about 7 ns, measured).
        let specialized: ((DerivedObservation, IndexedChange?, Bool) -> Void)?
        if let specialization { specialized = specialization.change } else { specialized = nil }
        let observation = DerivedObservation(
            root: root, keyPath: keyPath, affecting: affecting, sources: sources, untracked: untracked,
            specialized: specialized)
        let channel = PropertyChannel<Value>(key: nil, ownerID: nil, read: { observation.read() })
        channel.derivedInterest = observation
        observation.ownChannel = Unmanaged.passUnretained(channel)
        return (channel, observation)
    }

    private init(
        root: Root, keyPath: KeyPath<Root, Value>, affecting: [AnyKeyPath], sources: [any DependencySource],
        untracked: Bool, specialized: ((DerivedObservation, IndexedChange?, Bool) -> Void)?
    ) {
        self.untracked = untracked
        suggestAnchor = untracked && !root.observationAnchor.isAnchor
        // Made only for a value that may be storage: the reader's conformance check and
        // closures would cost every other observation's creation for nothing.
        if DependencyTracking.mayBeStorage(Value.self) {
            let storage = StorageReader<Value>()
            storageIdentity = storage.identity
            storageSource = storage.source
        } else {
            storageIdentity = { _ in nil }
            storageSource = { _ in nil }
        }
        self.root = root
        heldRoot = Unmanaged.passUnretained(root)
        rootID = ObjectIdentifier(root)
        self.keyPath = keyPath
        self.affecting = affecting
        if let specialized {
            change = specialized
        } else {
            change = { observation, indexed, rootHeld in
                observation.didChange(indexed: indexed, rootHeld: rootHeld) { $0[keyPath: observation.keyPath] }
            }
        }
        manualSources = ([keyPath] + affecting).map { ManualChangeRegistry.channel(for: root, key: $0) }
        primedSources = sources
    }

    deinit {
        if untracked, !sawChange.load(ordering: .relaxed) {
            ObservationTarget.warnUntracked(keyPath, of: Root.self, suggestAnchor: suggestAnchor)
        }
        ObservationTarget.forget(ObjectIdentifier(self))
    }

    /// The channel, if this observation can serve a new observer of `root`: it belongs
    /// to that very object (not to a dead one whose address was reused), has not ended,
    /// and is active, idle included (a dormant one's channel goes with its last
    /// observer).
    func channel(serving root: Root) -> PropertyChannel<Value>? {
        guard self.root === root else { return nil }
        return lock.withLock { ended ? nil : channel }
    }

    /// The current value, or `nil` once the root is gone.
    private func read() -> Value? {
        guard let root else { return nil }
        return .some(root[keyPath: keyPath])
    }

    /// The value now, and what the key path and the affecting key paths read to make it:
    /// `nil` if that is exactly `expected`.
    private func evaluate(_ root: Root, expecting expected: [any DependencySource]) -> (Value, [any DependencySource]?) {
        var value: Value?
        let sources = DependencyTracking.track(expecting: expected) {
            value = root[keyPath: keyPath]
            if valueMayBeStorage, let source = storageSource(value!) { DependencyTracking.recordStorage(source) }
            for key in affecting { _ = root[keyPath: key] }
        }
        return (value!, sources)
    }

    /// Reads the affecting key paths (while tracking).
    @usableFromInline
    func readAffecting(_ root: Root) {
        for key in affecting { _ = root[keyPath: key] }
    }

    /// What the affecting key paths read now.
    private func affectingSources(_ root: Root) -> [any DependencySource] {
        guard !affecting.isEmpty else { return [] }
        return DependencyTracking.track(expecting: []) {
            for key in affecting { _ = root[keyPath: key] }
        } ?? []
    }

    // MARK: DerivedInterest

    /// An observer was made for the channel (on the model's isolation): the first one
    /// activates the observation; the first wanting prior notices links for them.
    @usableFromInline
    func addInterest(prior: Bool, old: Bool) {
        lock.lock()
        if ended {
            // Counted all the same: the observer's end removes what it added.
            interest += 1
            if prior { priorInterest += 1 }
            lock.unlock()
            if old { _ = lastValue.addInterest() }
            // Ended while dormant: its channel, which the caller holds, was not closed.
            ownChannel?.takeUnretainedValue().close()
            return
        }
        interest += 1
        if prior { priorInterest += 1 }
        // Idle (active with no observer) needs nothing: its links are current (a change
        // that reached it while idle made it leave, except a forwarded change of a
        // chain's last property, which changes nothing that the links follow).
        let activate = !active
        // The caller, an observer being made, holds the channel.
        if channel == nil { channel = ownChannel?.takeUnretainedValue() }
        let linkPriors = !activate && prior && priorLinks.isEmpty
        active = true
        let primed = activate ? primedSources : nil
        primedSources = nil
        lock.unlock()
        if old { addInterestInLastValue() }
        guard activate || linkPriors else { return }
        guard let root else {
            // Gone since the look-up that found this observation: nothing to link.
            end()
            return
        }
        if let primed {
            relink(to: primed + affectingSources(root))
        } else {
            // Linking for prior notices, or activated by an observer that no look-up
            // primed: read the model afresh.
            let (_, sources) = evaluate(root, expecting: [])
            relink(to: sources ?? [])
        }
    }

    /// An observer wanting old values was made: the first one has the last value read
    /// and kept. Apart from ``addInterest(prior:old:)``, whose common case then needs no
    /// metadata for `Value?` (generic code looks it up on entry, about 20 ns).
    @inline(never)
    private func addInterestInLastValue() {
        // Called on the model's isolation: reading it here is safe.
        if lastValue.addInterest() { lastValue.store(read()) }
    }

    /// An observer is gone (cancelled, released, or ended; any thread): the last one
    /// makes the observation leave its dependencies, the last wanting prior notices
    /// drops the links for them.
    @usableFromInline
    func removeInterest(prior: Bool, old: Bool) {
        if old { lastValue.removeInterest() }
        lock.lock()
        var dropped: [any DependencyLink] = []
        var released: PropertyChannel<Value>?
        interest -= 1
        if prior { priorInterest -= 1 }
        if priorInterest == 0, !priorLinks.isEmpty {
            dropped += priorLinks.values
            priorLinks = [:]
        }
        // Otherwise idle, until the next change or the end of the root (see above).
        if interest == 0, active, !linkedToRoot || ended {
            released = leaveDependencies(into: &dropped)
        }
        for link in dropped { link.retire() }
        lock.unlock()
        releaseAfterUnlocking(released)
        for link in dropped { link.detach() }
    }

    /// Goes dormant: drops the links (into `dropped`, retired, to detach after
    /// unlocking) and returns the channel, to release after unlocking. Under the lock.
    @usableFromInline
    func leaveDependencies(into dropped: inout [any DependencyLink]) -> PropertyChannel<Value>? {
        active = false
        generation &+= 1
        dropped += links.values
        links = [:]
        forwardingSource = nil
        forwardingVersions = []
        linkedToRoot = false
        tracked = []
        // Not `swap`: a generic call, which would look up the metadata of the type.
        let released = channel
        channel = nil
        return released
    }

    /// A dependency changed while the observation is idle: leaves the dependencies.
    /// Under the lock, which it releases.
    @usableFromInline
    func leaveWhileIdle() {
        var dropped: [any DependencyLink] = []
        let released = leaveDependencies(into: &dropped)
        for link in dropped { link.retire() }
        lock.unlock()
        releaseAfterUnlocking(released)
        for link in dropped { link.detach() }
    }

    // MARK: Links

    /// Registers with the sources that `tracked` (what an evaluation read) and the
    /// hand-notified channels make, and leaves the ones no longer read; links for prior
    /// notices exist exactly while some observer wants them.
    @usableFromInline
    func relink(to tracked: [any DependencySource]) {
        // Before locking: it takes the models' creation locks.
        let tail = root.flatMap { forwardableTail(of: tracked, root: $0) }
        lock.lock()
        // Active, the observation holds its channel; each link holds it too (see
        // `DependentObserver.keeper`).
        guard active, !ended, let keeper = channel else {
            lock.unlock()
            return
        }
        self.tracked = tracked
        let generation = self.generation
        let wantsPriors = priorInterest > 0
        var unique: [any DependencySource] = []
        var ids = Set<ObjectIdentifier>()
        for source in manualSources + tracked where ids.insert(ObjectIdentifier(source)).inserted {
            unique.append(source)
        }
        linkedToRoot = unique.contains { $0.isStoredProperty && $0.ownerID == rootID }
        if interest == 0, !linkedToRoot {
            // Idle, and no longer linked with a property of the root, whose end would end
            // it (the last observer left while this evaluation was under way): leaves.
            leaveWhileIdle()
            return
        }

        var toDetach: [any DependencyLink] = []
        // A link that forwards and one that does not are not interchangeable, nor are two
        // forwarding links made for different versions of the chain's earlier properties:
        // when either changes, both links go and are made again.
        if forwardingSource != tail.map({ ObjectIdentifier($0.source) }) || forwardingVersions != (tail?.versions ?? []) {
            for id in [forwardingSource, tail.map { ObjectIdentifier($0.source) }].compactMap({ $0 }) {
                if let link = links.removeValue(forKey: id) { toDetach.append(link) }
            }
            forwardingSource = tail.map { ObjectIdentifier($0.source) }
            forwardingVersions = tail?.versions ?? []
        }
        let changesToAttach = Self.diff(&links, with: unique, detaching: &toDetach)
        var priorsToAttach: [any DependencySource] = []
        if wantsPriors {
            priorsToAttach = Self.diff(&priorLinks, with: unique, detaching: &toDetach)
        } else {
            toDetach += priorLinks.values
            priorLinks = [:]
        }
        for link in toDetach { link.retire() }
        lock.unlock()

        for link in toDetach { link.detach() }
        let changes = changesToAttach.map { source in
            let id = ObjectIdentifier(source)
            if let tail, id == ObjectIdentifier(tail.source) { return (id, tail.attach(self)) }
            return (id, source.attach(self, role: .changes, keeping: keeper))
        }
        let priors = priorsToAttach.map { (ObjectIdentifier($0), $0.attach(self, role: .priors, keeping: keeper)) }

        var late: [any DependencyLink] = []
        lock.lock()
        if self.generation != generation || ended {
            late = changes.map { $0.1 } + priors.map { $0.1 }
        } else {
            for (id, link) in changes {
                if links[id] == nil { links[id] = link } else { late.append(link) }
            }
            for (id, link) in priors {
                if priorInterest > 0, priorLinks[id] == nil { priorLinks[id] = link } else { late.append(link) }
            }
        }
        for link in late { link.retire() }
        lock.unlock()
        for link in late { link.detach() }
    }

    /// Keeps the links of `links` whose source is in `sources`, moves the others to
    /// `detaching`, and returns the sources that have no link yet. Runs under the lock.
    private static func diff(
        _ links: inout [ObjectIdentifier: any DependencyLink], with sources: [any DependencySource],
        detaching: inout [any DependencyLink]
    ) -> [any DependencySource] {
        var keep: [ObjectIdentifier: any DependencyLink] = [:]
        var missing: [any DependencySource] = []
        for source in sources {
            let id = ObjectIdentifier(source)
            if let link = links.removeValue(forKey: id) { keep[id] = link } else { missing.append(source) }
        }
        detaching += links.values
        links = keep
        return missing
    }

    // MARK: DependentHandler

    @usableFromInline
    func dependencyWillChange(_ indexed: IndexedChange?) {
        if untracked { sawChange.store(true, ordering: .relaxed) }
        guard let channel = lock.withLock({ channel }), channel.wantsPrior, let root else { return }
        // The value after the last change, not a fresh read: a prior notice queued behind
        // a re-entrant set is delivered after the model has moved on. (Observers that
        // want prior notices want old values, so the last value is kept for them.)
        let last = lastValue.load()
        let own = self.own(indexed, root: root)
        if let own, own.kind == .setting {
            // A set notified by hand, announced with the value before it.
            channel.sendPrior(old: own.oldElements as? Value ?? last ?? root[keyPath: keyPath])
        } else {
            channel.sendPrior(old: last ?? root[keyPath: keyPath], indexed: own)
        }
    }

    @usableFromInline
    func dependencyDidChange(_ indexed: IndexedChange?, setOwner: ObjectIdentifier?) {
        if untracked { sawChange.store(true, ordering: .relaxed) }
        // A batch's flush: one evaluation sees every change made before it.
        if _slowPath(BatchContext.isActive),
           BatchContext.withCurrent({ context in lock.withLock { batchMark.isRepeat(in: context) } }) == true {
            return
        }
        // Passed on as it is: the change, which evaluates, keeps it only if it is this key
        // path's own (see `ownIndexedChange(_:value:root:)`).
        change(self, indexed, setOwner == rootID)
    }

    /// `indexed` if it describes this observation's value, `value` (just evaluated), of
    /// `root`: an indexed change of the collection that is the value (`\.tasks`), or one
    /// announced by hand for exactly this key path of this object. An indexed change of
    /// another dependency does not describe the value. (Inlined into the change, where
    /// `Value` is known: the check of the collection is then an identity comparison.)
    @inlinable @inline(__always)
    func ownIndexedChange(_ indexed: IndexedChange, value: Value, root: Root) -> IndexedChange? {
        guard let key = indexed.key else {
            guard valueMayBeStorage, storageIdentity(value) == indexed.object else { return nil }
            return indexed
        }
        return indexed.object == rootID && key == keyPath ? indexed : nil
    }

    /// `indexed` if it was announced for exactly this key path of this object: an
    /// indexed change of another dependency does not describe this observation's value.
    ///
    /// An indexed change of an observable collection (an `ObservableArray`, no `key`)
    /// describes the value of a key path whose value is that collection (`\.tasks`).
    private func own(_ indexed: IndexedChange?, root: Root) -> IndexedChange? {
        guard let indexed else { return nil }
        guard let key = indexed.key else {
            guard valueMayBeStorage, storageIdentity(root[keyPath: keyPath]) == indexed.object else { return nil }
            return indexed
        }
        return indexed.object == ObjectIdentifier(root) && key == keyPath ? indexed : nil
    }

    /// A dependency's source is gone: with the root, the observation ends; otherwise an
    /// idle observation leaves (a link of its is dead), and an active one carries on (its
    /// next evaluation reads what is there now).
    @usableFromInline
    func dependencyEnded() {
        if root == nil {
            end()
            return
        }
        lock.lock()
        if active, !ended, interest == 0 {
            leaveWhileIdle()
        } else {
            lock.unlock()
        }
    }

    /// The root is gone: leaves every dependency and completes the observers.
    @usableFromInline
    func end() {
        let links: [any DependencyLink]? = lock.withLock {
            guard !ended else { return nil }
            ended = true
            active = false
            generation &+= 1
            let links = Array(self.links.values) + Array(priorLinks.values)
            self.links = [:]
            priorLinks = [:]
            forwardingSource = nil
            tracked = []
            for link in links { link.retire() }
            return links
        }
        guard let links else { return }
        for link in links { link.detach() }
        // Taken before closing, released after: the channel may be held only here. A
        // dormant observation's channel has no observer; the next one closes it (see
        // `addInterest`).
        let held = lock.withLock {
            let held = channel
            channel = nil
            return held
        }
        held?.close()
        releaseAfterUnlocking(held)
    }
}
