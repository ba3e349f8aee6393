import Synchronization

/// Something whose changes a derived key path can depend on: the channel of an
/// `@Observed` property, or of a key path notified by hand.
@usableFromInline
protocol DependencySource: AnyObject {
    /// Registers `dependent` to hear about the source's changes, or its prior notices,
    /// as `role` says; the returned link unregisters it. The link holds `keeper` until
    /// it is released itself, which may be after it unregistered, when the source defers
    /// the removal to the end of a delivery under way (see ``DependentObserver/keeper``).
    func attach(_ dependent: any DependentHandler, role: DependencyRole, keeping keeper: AnyObject?) -> any DependencyLink
    /// The object the source belongs to (see ``PropertyChannel/ownerID``).
    var ownerID: ObjectIdentifier? { get }
    /// Whether the source is an `@Observed` property's channel, which closes when its
    /// model deinitialises.
    var isStoredProperty: Bool { get }
    /// The key path the source stands for, once known (see ``PropertyChannel/key``).
    var sourceKey: AnyKeyPath? { get }
    /// The source's count of changes sent (see ``ChangeCount``).
    var changeCount: ChangeCount { get }
    /// The key path the source stands for, as a message names it (`\Person.count`).
    var sourceName: String { get }
}

/// The count of changes a channel sent, in a class of its own above the generic
/// ``Channel``, so that a chain's forwarding link reads it for channels of any value type
/// with a field load, not a generic or existential call (see
/// ``DependentObserver/forward(_:to:from:)``). Only ``PropertyChannel`` counts.
@usableFromInline
class ChangeCount: @unchecked Sendable {
    // `@unchecked Sendable`: `changes` is atomic.

    /// Written by the sends, one at a time (the model's isolation orders an `@Observed`
    /// property's sets; a derived key path's sends are its model's too), with a relaxed
    /// load and store, which cost what a plain increment costs; atomic so that a
    /// forwarding link on another model's isolation may read it.
    @usableFromInline final let changes = Atomic<UInt>(0)

    @inlinable
    init() {}

    /// The number of changes sent so far.
    @inlinable
    final var version: UInt { changes.load(ordering: .relaxed) }

    /// Counts one more change.
    @inlinable @inline(__always)
    final func countChange() {
        changes.store(changes.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }
}

/// What a link passes on to its derived observation.
///
/// Changes and prior notices go through separate links: prior notices cost the source a
/// copy of its old value at each change, so a derived observation links for them only
/// while one of its observers wants them, and adding or dropping those links never
/// touches the links that carry changes (which could lose a change under way).
@usableFromInline
enum DependencyRole: Sendable {
    /// Changes only.
    case changes
    /// Prior notices only.
    case priors
    /// Both.
    case both

    var needsPrior: Bool { self != .changes }
}

extension PropertyChannel {
    @usableFromInline
    func attach(_ dependent: any DependentHandler, role: DependencyRole, keeping keeper: AnyObject?) -> any DependencyLink {
        let link = DependentObserver<Value>(source: self, dependent: dependent, role: role, keeping: keeper)
        add(link, needsOld: linksWantOld, needsPrior: role.needsPrior, initial: false)
        return link
    }

    /// Registers a link that passes the changes of this channel, the last property of a
    /// chain of `@Observed` properties (`\.child.value`), on to `target`, the channel of
    /// the chain's observation, as they are: the value of that property is the value of
    /// the chain (see ``DependentObserver/forwardTarget``). `root` is the chain's root.
    func attachForwarding(
        _ dependent: any DependentHandler, to target: PropertyChannel<Value>, lastValue: LastValue<Value>,
        guards: [ChangeCount], versions: [UInt]
    ) -> any DependencyLink {
        let link = DependentObserver<Value>(
            source: self, dependent: dependent, forwardingTo: target, lastValue: lastValue,
            guards: guards, versions: versions)
        add(link, needsOld: false, needsPrior: false, initial: false)
        return link
    }

    @usableFromInline
    var changeCount: ChangeCount { self }

    @usableFromInline
    var sourceName: String {
        guard isStoredProperty, let ownerID else {
            return key.map { "\($0)" } ?? "a key path notified by hand"
        }
        return ChannelCreation.withLock(forID: ownerID) { propertyName.map { "\\\($0)" } } ?? "an @Observed property"
    }

    @usableFromInline
    var sourceKey: AnyKeyPath? {
        // Set once, under the owner's creation lock for an `@Observed` property (see `key`).
        guard isStoredProperty, let ownerID else { return key }
        return ChannelCreation.withLock(forID: ownerID) { key }
    }
}

/// A registration made by ``DependencySource/attach(_:role:keeping:)``.
///
/// Ending a link takes two steps: ``retire()`` at once, under the lock of the derived
/// observation that drops it, so that from then on it passes nothing on; ``detach()``
/// later, outside that lock, to unregister from the source. Between the two, the
/// observation may already have attached a new link to the same source (re-activated
/// on another thread), and a change must not reach it twice.
@usableFromInline
protocol DependencyLink: AnyObject {
    /// Stops passing anything on; cheap, callable under a lock.
    func retire()
    /// Unregisters from the source (after ``retire()``); idempotent.
    func detach()
}

/// What a dependency tells the derived observation that depends on it.
@usableFromInline
protocol DependentHandler: AnyObject {
    /// `indexed`: the indexed-collection change the dependency announced, if any.
    func dependencyWillChange(_ indexed: IndexedChange?)
    /// `setOwner`: the change is delivered at once by a set, on this thread, of a
    /// property of the object it names (the source's owner), whose caller holds that
    /// object until this returns; `nil` for a change delivered from a queue or by a
    /// batch's flush, or of a source with no owner. Until this returns the object is this
    /// thread's: SPEC section 6 lets other threads observe and subscribe to a model only
    /// while nobody sets it (a callback may hand it over and wait, which orders what the
    /// other thread does before what follows here). So a derived observation whose root it
    /// is uses the root with no weak load, and a tracked read of it needs no creation lock
    /// (see ``DependencyTracking/Recorder/trustedOwner``).
    func dependencyDidChange(_ indexed: IndexedChange?, setOwner: ObjectIdentifier?)
    func dependencyEnded()
}

/// The observer a derived observation registers with each of its dependencies.
///
/// It passes on only the fields of an event whose offsets do not depend on `Value`
/// (``pass(isPrior:indexed:held:)``), and the specialized delivery loop reads them for it
/// (``PropertyChannel/call(_:_:)``), as it reads a forwarded value for
/// ``forward(_:to:from:)``, which is specialized there: the link's own code is not, and
/// reading the event there looks up the metadata of `PropertyEvent<Value>`, which only
/// queued events (``receive(_:)``) pay.
@usableFromInline
final class DependentObserver<Value>: ChannelObserver<PropertyEvent<Value>>, DependencyLink {
    /// Strong, like every reference to a channel (see `PropertyObserver.channel`).
    private let source: PropertyChannel<Value>
    /// Strong: while attached, a derived observation must live to hear its dependencies.
    @usableFromInline let dependent: any DependentHandler
    /// A derived observation's channel, held for as long as the link lives, and never
    /// read: so that the observation's change, which only a link's delivery runs (and a
    /// link is alive while a source delivers to it), uses the channel without retaining
    /// it, even when the last observer leaves meanwhile and the observation lets go of
    /// it (see `DerivedObservation.didChange(root:indexed:trusted:evaluate:)`). A
    /// forwarding link's ``forwardTarget`` is that channel; `nil` for a reaction's link.
    private let keeper: AnyObject?
    /// What the link passes on. A source sends prior notices to all its observers once
    /// any of them asked, so a `.changes` link filters them out.
    let role: DependencyRole
    /// For the link with the last property of a chain of `@Observed` properties
    /// (`\.child.value`, see `DerivedObservation.forwardableTail`), the chain's channel:
    /// the chain's value is that property's value, so a change is sent on as it is, with
    /// no evaluation of the key path. `nil` for every other link.
    @usableFromInline let forwardTarget: PropertyChannel<Value>?
    /// For a forwarding link, the chain's last value (for old values).
    @usableFromInline let lastValue: LastValue<Value>?
    /// For a forwarding link, the channels of the chain's earlier properties, and their
    /// versions when the link was made: while they are unchanged, the source is the
    /// chain's last property. Strong, as every reference to a channel.
    @usableFromInline let guards: [ChangeCount]
    @usableFromInline let versions: [UInt]

    init(source: PropertyChannel<Value>, dependent: any DependentHandler, role: DependencyRole, keeping keeper: AnyObject?) {
        self.source = source
        self.dependent = dependent
        self.role = role
        self.keeper = keeper
        forwardTarget = nil
        lastValue = nil
        guards = []
        versions = []
        super.init(optionBits: DependencyLinkFlag.bits(for: source))
    }

    /// A forwarding link (see ``forwardTarget``), for changes only.
    init(source: PropertyChannel<Value>, dependent: any DependentHandler, forwardingTo target: PropertyChannel<Value>,
         lastValue: LastValue<Value>, guards: [ChangeCount], versions: [UInt]) {
        self.source = source
        self.dependent = dependent
        role = .changes
        keeper = nil   // `target` is the channel
        forwardTarget = target
        self.lastValue = lastValue
        self.guards = guards
        self.versions = versions
        super.init(optionBits: DependencyLinkFlag.bits(for: source))
    }

    /// Passes a change, or its prior notice, on to the derived observation, as `role`
    /// says. `held`: delivered at once by the thread that made the change (see
    /// `PropertyChannel.call`), not from a queue.
    @usableFromInline
    final func pass(isPrior: Bool, indexed: IndexedChange?, held: Bool) {
        if isPrior {
            guard role != .changes else { return }
            // In a batch, the change a deferring link holds reaches the key path as a
            // `.setting` (see `BatchContext.deferChange`): so does its prior notice.
            if _slowPath(optionBits & DependencyLinkFlag.defersInBatches != 0), BatchContext.isActive {
                dependent.dependencyWillChange(nil)
            } else {
                dependent.dependencyWillChange(indexed)
            }
        } else if role != .priors {
            // A source that batches do not hold: its change waits for the flush here.
            if _slowPath(optionBits & DependencyLinkFlag.defersInBatches != 0),
               BatchContext.withCurrent({ $0.deferChange(reaching: self) }) != nil {
                return
            }
            dependent.dependencyDidChange(indexed, setOwner: held ? source.ownerID : nil)
        }
    }

    /// Events that another thread queued, delivered from the queue.
    override func receive(_ event: PropertyEvent<Value>) {
        if let forwardTarget, !event.isPrior, let new = event.new {
            Self.forward(new, to: forwardTarget, from: self)
        } else {
            pass(isPrior: event.isPrior, indexed: event.indexed, held: false)
        }
    }

    /// Sends a change of a chain's last property on to the chain's channel, with the
    /// chain's previous value if some observer wants old values. The observation does
    /// the work instead (it evaluates) when an earlier property of the chain changed
    /// since the link was made (the source may no longer be the chain's: an observer of a
    /// replaced `child` may be setting the old child, before the observation follows the
    /// new one), with no observer registered on the chain's channel (it leaves while
    /// idle, or, for an observer still to register, evaluates), and during a batch on
    /// this thread.
    ///
    /// The caller holds the last property's model, not the chain's root, so the send is
    /// one that does not hold the channel's object (`sendChangeWithoutHolding`): a change
    /// handler loads the root weakly itself, and a `sink` needs no root (it used to be
    /// loaded weakly here for every change: about 20 ns, a slow retain and release once
    /// the model is weakly referenced). The root's end ends the observation, and with it
    /// this link, during the root's `deinit` (its properties' channels close).
    ///
    /// Each value set reaches the chain's observers as it reaches the property's own,
    /// also when an observer sets the property again from its callback (the next value
    /// follows in order), where an evaluation would read the newer value twice.
    ///
    /// Specialized where `PropertyChannel.call` is, but not inlined there: it sends on
    /// another channel, whose `call` it inlines.
    @inlinable @inline(never)
    static func forward(_ value: Value, to target: PropertyChannel<Value>, from link: DependentObserver<Value>) {
        var current = true
        for index in link.guards.indices where link.guards[index].version != link.versions[index] { current = false }
        // In a batch's flush on this thread, the observation evaluates instead, which it
        // does once for all the changes the batch holds (see `BatchMark.isRepeat(in:)`).
        guard current, target.isObserved, !BatchContext.isActive else {
            link.dependent.dependencyDidChange(nil, setOwner: nil)
            return
        }
        let old = link.lastValue.flatMap { $0.isWanted ? $0.swap(value) : nil }
        target.sendChangeWithoutHolding(old: old, new: value)
    }

    /// Set by the first ``detach()``, which alone unregisters.
    private let detached = Atomic<Bool>(false)

    override func sourceDidEnd() { dependent.dependencyEnded() }

    /// The source's delivery loop checks `cancelled` before each event.
    @usableFromInline func retire() { cancelled.store(true, ordering: .releasing) }

    @usableFromInline func detach() {
        guard !detached.exchange(true, ordering: .acquiringAndReleasing) else { return }
        cancelled.store(true, ordering: .releasing)
        source.remove(self, needsOld: forwardTarget == nil && source.linksWantOld, needsPrior: role.needsPrior)
    }
}

/// Marks a ``DependentObserver`` in `optionBits`, and its own bits there (a link has no
/// options, which a ``PropertyObserver`` keeps in the low bits).
@usableFromInline
enum DependencyLinkFlag {
    @inlinable static var bit: UInt8 { 0x20 }
    /// The source's changes reach their observers at once inside a batch (an
    /// `ObservableArray`'s, see ``PropertyChannel/notifiesInBatches``): the link holds
    /// them for the flush itself (``BatchContext/deferChange(reaching:)``). A bit, not a
    /// field: a field made every link larger, and the computed key path's change, which
    /// passes through a link, measured slower.
    @inlinable static var defersInBatches: UInt8 { 0x01 }

    /// A link's bits for `source`.
    static func bits<Value>(for source: PropertyChannel<Value>) -> UInt8 {
        source.notifiesInBatches ? bit | defersInBatches : bit
    }
}
