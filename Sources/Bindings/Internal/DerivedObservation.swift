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
/// cannot make another one skip a value (SPEC section 6).
///
/// Lifetime: the channel holds this object (its `read` closure does), and every
/// observer holds the channel. While some observer exists (``addInterest(prior:)``) the
/// observation is active: its links with the dependencies hold it too. When the last
/// observer goes it leaves its dependencies and lies dormant until another observer
/// comes or its channel is released. When its root object is gone it ends for good and
/// closes its channel, which completes and releases the observers.
///
/// `@usableFromInline`, with the members that a change touches: the work of a change is
/// inlined, specialized for the model's types, where the key path is observed (see
/// ``DerivedSpecialization``).
@usableFromInline
final class DerivedObservation<Root: KeyValueObservable, Value>: DependentHandler, ChannelEmptyHandler,
    DerivedInterest, @unchecked Sendable
{
    // `@unchecked Sendable`:
    // - `keyPath`, `affecting`, `manualSources`, `specialized`, `lock`: `let`s; `root`: a
    //   `weak let` (weak references are loaded atomically by the runtime).
    // - `channel`: weak, set once by `makeChannel` before the observation is shared.
    // - `links`, `priorLinks`, `last`, `oldInterest`, `interest`, `priorInterest`,
    //   `active`, `ended`, `generation`, `tracked`, `primedSources`: only touched with
    //   `lock` held.
    // - `oldWanted`: atomic (written with `lock` held).
    // `@exclusivity(unchecked)` on the `var`s that every change touches (`last`,
    // `oldInterest`, `active`, `ended`, `tracked`): `lock` orders them. The others change
    // only when observers come and go, or the dependencies do: dynamic checks cost nothing
    // measurable there.

    @usableFromInline weak let root: Root?
    @usableFromInline let keyPath: KeyPath<Root, Value>
    @usableFromInline let affecting: [AnyKeyPath]
    /// The hand-notified channels of the key path and of those affecting it; fixed.
    private let manualSources: [any DependencySource]
    /// Weak: the channel owns this object, not the other way round.
    @usableFromInline private(set) weak var channel: PropertyChannel<Value>?
    /// A change's work specialized for `Root` and `Value`, when the observer that made
    /// this observation provided it; fixed.
    private let specialized: ((DerivedObservation, IndexedChange?) -> Void)?

    @usableFromInline let lock = CompactLock()
    /// The links that carry the dependencies' changes, by source.
    private var links: [ObjectIdentifier: any DependencyLink] = [:]
    /// The links that carry their prior notices, while some observer wants them.
    private var priorLinks: [ObjectIdentifier: any DependencyLink] = [:]
    /// The last value, kept only while some observer wants old values (`oldInterest`):
    /// holding it otherwise would make every in-place mutation of a copy-on-write value
    /// (an array) copy it.
    @exclusivity(unchecked) @usableFromInline var last: Value?
    @exclusivity(unchecked) @usableFromInline var oldInterest = 0
    /// `oldInterest`, readable without the lock, so that a change that nobody wants the
    /// old value of takes no second lock. Written under the lock.
    @usableFromInline let oldWanted = Atomic<Int>(0)
    /// Observers that exist (registered or about to be), and those of them wanting `.prior`.
    private var interest = 0
    private var priorInterest = 0
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
    private var primedSources: [any DependencySource]?

    /// Makes the observation and its channel; `sources` and `value` come from the
    /// evaluation the caller just made while tracking. Returns the channel, which owns
    /// the observation; it stays dormant until an observer is created for the channel.
    static func makeChannel(
        root: Root, keyPath: KeyPath<Root, Value>, affecting: [AnyKeyPath],
        sources: [any DependencySource], value: Value, specialization: DerivedSpecialization<Root, Value>?
    ) -> (PropertyChannel<Value>, DerivedObservation) {
        let observation = DerivedObservation(
            root: root, keyPath: keyPath, affecting: affecting, sources: sources,
            // A closure, not `map(\.change)`: a key path literal in generic code is
            // instantiated at run time on each call (about 3 µs of metadata look-ups).
            specialized: specialization.map { $0.change })
        let channel = PropertyChannel<Value>(key: nil, ownerID: nil, read: { observation.read() })
        channel.derivedInterest = observation
        observation.channel = channel
        return (channel, observation)
    }

    private init(
        root: Root, keyPath: KeyPath<Root, Value>, affecting: [AnyKeyPath], sources: [any DependencySource],
        specialized: ((DerivedObservation, IndexedChange?) -> Void)?
    ) {
        self.root = root
        self.keyPath = keyPath
        self.affecting = affecting
        self.specialized = specialized
        manualSources = ([keyPath] + affecting).map { ManualChangeRegistry.channel(for: root, key: $0) }
        last = nil
        primedSources = sources
    }

    deinit {
        ObservationTarget.forget(ObjectIdentifier(self))
    }

    /// Whether this observation can serve a new observer of `root`: it belongs to that
    /// very object (not to a dead one whose address was reused) and has not ended.
    func serves(_ root: Root) -> Bool {
        self.root === root && !lock.withLock { ended }
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
            for key in affecting { _ = root[keyPath: key] }
        }
        return (value!, sources)
    }

    /// Reads the affecting key paths (while tracking).
    @usableFromInline
    func readAffecting(_ root: Root) {
        for key in affecting { _ = root[keyPath: key] }
    }

    /// Keeps `value` as the last one for observers that want old values, and returns the
    /// one it replaces; `nil` if no such observer is left.
    @usableFromInline
    func swapLast(_ value: Value) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard oldInterest > 0 else { return nil }
        let old = last
        last = value
        return old
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
            lock.unlock()
            return
        }
        if old {
            oldInterest += 1
            oldWanted.store(oldInterest, ordering: .relaxed)
            if oldInterest == 1 {
                // Called on the model's isolation: reading it here is safe.
                lock.unlock()
                let current = read()
                lock.lock()
                last = current
            }
        }
        interest += 1
        if prior { priorInterest += 1 }
        let activate = !active
        let linkPriors = !activate && prior && priorLinks.isEmpty
        active = true
        let primed = activate ? primedSources : nil
        primedSources = nil
        lock.unlock()
        guard activate || linkPriors, let root else { return }
        if let primed {
            relink(to: primed + affectingSources(root))
        } else {
            // Re-activated after lying dormant (the model may have changed meanwhile), or
            // linking for prior notices: read the model afresh.
            let (value, sources) = evaluate(root, expecting: [])
            relink(to: sources ?? [])
            if activate { lock.withLock { if oldInterest > 0 { last = value } } }
        }
    }

    /// An observer is gone (cancelled, released, or ended; any thread): the last one
    /// makes the observation leave its dependencies, the last wanting prior notices
    /// drops the links for them.
    @usableFromInline
    func removeInterest(prior: Bool, old: Bool) {
        lock.lock()
        var dropped: [any DependencyLink] = []
        var lastValue: Value?
        if old {
            oldInterest -= 1
            oldWanted.store(oldInterest, ordering: .relaxed)
            if oldInterest == 0 { swap(&lastValue, &last) }
        }
        interest -= 1
        if prior { priorInterest -= 1 }
        if priorInterest == 0 { dropped += priorLinks.values }
        if priorInterest == 0 { priorLinks = [:] }
        if interest == 0, active {
            active = false
            generation &+= 1
            dropped += links.values
            links = [:]
            tracked = []
        }
        for link in dropped { link.retire() }
        lock.unlock()
        withExtendedLifetime(lastValue) {}   // released outside the lock
        for link in dropped { link.detach() }
    }

    // MARK: Links

    /// Registers with the sources that `tracked` (what an evaluation read) and the
    /// hand-notified channels make, and leaves the ones no longer read; links for prior
    /// notices exist exactly while some observer wants them.
    @usableFromInline
    func relink(to tracked: [any DependencySource]) {
        lock.lock()
        guard active, !ended else {
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

        var toDetach: [any DependencyLink] = []
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
        let changes = changesToAttach.map { (ObjectIdentifier($0), $0.attach(self, role: .changes)) }
        let priors = priorsToAttach.map { (ObjectIdentifier($0), $0.attach(self, role: .priors)) }

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
        guard let channel, channel.wantsPrior, let root else { return }
        // The value after the last change, not a fresh read: a prior notice queued behind
        // a re-entrant set is delivered after the model has moved on. (Observers that
        // want prior notices want old values, so `last` is kept for them.)
        let last = lock.withLock { self.last }
        channel.sendPrior(old: last ?? root[keyPath: keyPath], indexed: own(indexed, root: root))
    }

    @usableFromInline
    func dependencyDidChange(_ indexed: IndexedChange?) {
        var own: IndexedChange?
        if let indexed, let root { own = self.own(indexed, root: root) }
        if let specialized {
            specialized(self, own)
        } else {
            didChange(indexed: own) { $0[keyPath: keyPath] }
        }
    }

    /// `indexed` if it was announced for exactly this key path of this object: an
    /// indexed change of another dependency does not describe this observation's value.
    private func own(_ indexed: IndexedChange?, root: Root) -> IndexedChange? {
        guard let indexed, indexed.object == ObjectIdentifier(root), indexed.key == keyPath else { return nil }
        return indexed
    }

    @usableFromInline
    func dependencyEnded() {
        if root == nil { end() }
    }

    /// Interest, not registrations, decides when to leave the dependencies (an observer
    /// may exist before it registers): nothing to do here.
    @usableFromInline
    func channelBecameEmpty() {}

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
            tracked = []
            for link in links { link.retire() }
            return links
        }
        guard let links else { return }
        for link in links { link.detach() }
        channel?.close()
    }
}
