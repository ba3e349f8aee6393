import CBindingsThreadLocal
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
        super.init(optionBits: DependencyLinkFlag.bit)
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
        super.init(optionBits: DependencyLinkFlag.bit)
    }

    /// Passes a change, or its prior notice, on to the derived observation, as `role`
    /// says. `held`: delivered at once by the thread that made the change (see
    /// `PropertyChannel.call`), not from a queue.
    @usableFromInline
    final func pass(isPrior: Bool, indexed: IndexedChange?, held: Bool) {
        if isPrior {
            if role != .changes { dependent.dependencyWillChange(indexed) }
        } else {
            if role != .priors { dependent.dependencyDidChange(indexed, setOwner: held ? source.ownerID : nil) }
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

/// Marks a ``DependentObserver`` in `optionBits`.
@usableFromInline
enum DependencyLinkFlag {
    @inlinable static var bit: UInt8 { 0x20 }
}

/// Finds out which observable storage a piece of code reads.
///
/// The getter of every `@Observed` property checks ``currentSession`` (one load of the
/// thread's state) and, only when its thread is tracking, reports itself through
/// ``record(_:into:_:)``.
///
/// A derived observation re-evaluates after every change, and usually reads exactly
/// what it read last time: it passes that list in (`expecting:`), each read is matched
/// against it in order, and only a read that departs from it makes a new list. So an
/// evaluation whose dependencies did not change allocates nothing (SPEC section 8).
@usableFromInline
enum DependencyTracking {
    /// Whether the current thread is tracking: one load of its thread-local state, so that
    /// a read on a thread that does not track stays cheap.
    @inlinable
    static var isActive: Bool { bindings_thread_session() != nil }

    /// One tracking session, on the stack of the thread that tracks (the thread's
    /// thread-local state points at it while `body` runs), so that tracking allocates
    /// nothing itself.
    ///
    /// `@usableFromInline`, with the fields of the common case: a read that is the next
    /// one expected is matched in the getter, inlined (``record(_:into:_:)``).
    @usableFromInline
    struct Recorder {
        /// What the caller expects to be read, in order: the caller's array, borrowed for
        /// the session (valid inside its `withUnsafeBufferPointer`, which the session
        /// never outlives), so that a session retains nothing.
        @usableFromInline let expected: UnsafeBufferPointer<any DependencySource>
        /// The session's thread's context, which keeps a ``Departure`` between sessions
        /// (unretained: the thread-local slot holds it for the thread's life).
        @usableFromInline let context: Unmanaged<BatchContext>
        /// How many of `expected` were read, in order, so far.
        @usableFromInline var matched = 0
        /// What was read, once the reads departed from `expected`; `nil` while they
        /// follow it. One reference for all of it, so that a session that read what it
        /// expected ends with one release of `nil`, not one per field (or, for a struct of
        /// them, a call through the recorder's value witnesses).
        @usableFromInline var departure: Departure?
        /// The model whose set this thread is delivering (see
        /// ``DependentHandler/dependencyDidChange(_:setOwner:)``): nobody else creates its
        /// properties' channels meanwhile, so a tracked read of it looks its channel up
        /// without the creation lock, as the set itself does. `nil`: every read locks.
        @usableFromInline var trustedOwner: ObjectIdentifier?
        /// Whether to keep ``Departure/versions``: only
        /// ``trackChanges(expecting:in:_:)`` asks (a dictionary per evaluation measured a
        /// tenth of making a binding).
        @usableFromInline var keepsVersions = false

        /// The reads of a session that departed from what it expected, once a read
        /// departs: a dependency switched, or the first evaluation of a key path (which
        /// expects nothing). Kept by the thread's context between sessions, so that a
        /// departure allocates no object of its own (a subscription to a computed key
        /// path departs in each of its evaluations: one allocation each measured about
        /// 100 ns of subscribe + cancel). Touched only by the session's thread.
        ///
        /// `@exclusivity(unchecked)` on its fields: one thread touches them, and no access
        /// spans a call that could touch them again; checked, each access was a run-time
        /// exclusivity check, about 100 ns of a subscription to a computed key path.
        @usableFromInline
        final class Departure {
            /// Every source read so far, each once, in order.
            @exclusivity(unchecked) var sources: [any DependencySource] = []
            /// The identifiers in `sources`, once it grows past a linear scan's worth.
            @exclusivity(unchecked) var seen: Set<ObjectIdentifier>?
            /// For each source read that is not in `expected`, its count of changes when
            /// it was read (see ``trackChanges(expecting:in:trusting:_:)``).
            @exclusivity(unchecked) var versions: [ObjectIdentifier: UInt]?

            /// The context's spare, or a new one, starting from `sources`, with room for a
            /// few more: a list grown one read at a time from empty was allocated twice
            /// for two reads (a subscription's look-up of a computed key path).
            static func make(
                in context: Unmanaged<BatchContext>, from sources: UnsafeBufferPointer<any DependencySource>.SubSequence
            ) -> Departure {
                let departure = context._withUnsafeGuaranteedRef { $0.spareDeparture.take() } ?? Departure()
                departure.sources.reserveCapacity(sources.count + 4)
                departure.sources.append(contentsOf: sources)
                return departure
            }

            /// Empties this departure and gives it to `context` to keep, unless it keeps
            /// one already (a nested session's).
            func recycle(into context: Unmanaged<BatchContext>) {
                sources = []
                seen = nil
                versions = nil
                context._withUnsafeGuaranteedRef { if $0.spareDeparture == nil { $0.spareDeparture = self } }
            }

            /// Adds the source that `id` names, unless it was read already.
            func add(_ id: ObjectIdentifier, _ source: () -> any DependencySource, keepingVersion: Bool) {
                if sources.count < 16 {
                    if sources.contains(where: { ObjectIdentifier($0) == id }) { return }
                } else {
                    if seen == nil { seen = Set(sources.lazy.map { ObjectIdentifier($0) }) }
                    guard seen!.insert(id).inserted else { return }
                }
                let made = source()
                if keepingVersion {
                    if versions == nil { versions = [:] }
                    versions![id] = made.changeCount.version
                }
                sources.append(made)
            }
        }

        /// Records the source that `id` names; `source` makes the reference only if it
        /// must be kept (a read that departs from `expected`), so that the common case
        /// retains nothing.
        @usableFromInline
        mutating func record(_ id: ObjectIdentifier, _ source: () -> any DependencySource) {
            if departure == nil {
                if matched < expected.count, ObjectIdentifier(expected[matched]) == id {
                    matched += 1
                    return
                }
                // Read again: nothing new. (A linear scan: dependency lists are short.)
                for index in 0..<matched where ObjectIdentifier(expected[index]) == id { return }
                departure = Departure.make(in: context, from: expected[0..<matched])
            }
            departure!.add(id, source, keepingVersion: keepsVersions)
        }

        /// Starts a session expecting `expected`, on this thread's context. Inlined, as
        /// ``finish()``'s common case is, into ``trackInlined(expecting:trusting:_:)``.
        @inlinable
        init(expected: UnsafeBufferPointer<any DependencySource>, trusting trustedOwner: ObjectIdentifier?) {
            self.init(expected: expected, context: BatchContext.ofThisThread)
            self.trustedOwner = trustedOwner
        }

        @inlinable
        init(expected: UnsafeBufferPointer<any DependencySource>, context: Unmanaged<BatchContext>) {
            self.expected = expected
            self.context = context
        }

        /// Ends the session: returns ``result``, and gives the departure, if any, back to
        /// the context.
        @inlinable
        mutating func finish() -> [any DependencySource]? {
            // The common case: exactly what was expected was read.
            if departure == nil, matched == expected.count { return nil }
            return finishDeparted()
        }

        /// ``finish()`` after the reads departed from `expected`, or stopped short of it.
        @usableFromInline
        mutating func finishDeparted() -> [any DependencySource]? {
            let result = self.result
            departure.take()?.recycle(into: context)
            return result
        }

        /// `nil` if exactly `expected` was read, otherwise what was.
        var result: [any DependencySource]? {
            if let departure { return departure.sources }
            return matched == expected.count ? nil : Array(expected[0..<matched])
        }
    }

    /// Runs `body` and returns what it read (each source once, in order), or `nil` if it
    /// read exactly `expected`. Nests: an inner tracking's reads are not reported to the
    /// outer one. Not generic, so that a caller in unspecialized generic code pays no
    /// metadata look-up for it. `trustedOwner`: see ``Recorder/trustedOwner``.
    @usableFromInline
    static func track(
        expecting expected: [any DependencySource], trusting trustedOwner: ObjectIdentifier? = nil, _ body: () -> Void
    ) -> [any DependencySource]? {
        trackInlined(expecting: expected, trusting: trustedOwner, body)
    }

    /// ``track(expecting:trusting:_:)``, always inlined, with `body` inlined into it: for
    /// a derived observation's change, whose `body` applies the key path literal that the
    /// optimizer folds into property reads. Passed to the function above, `body` was a
    /// closure that captured the key path, which the change then made at each run for
    /// nothing (a call to `swift_getKeyPath`, a retain and a release).
    @inlinable @inline(__always)
    static func trackInlined(
        expecting expected: [any DependencySource], trusting trustedOwner: ObjectIdentifier?, _ body: () -> Void
    ) -> [any DependencySource]? {
        expected.withUnsafeBufferPointer { expected in
            var recorder = Recorder(expected: expected, trusting: trustedOwner)
            session(&recorder, body)
            return recorder.finish()
        }
    }

    /// ``track(expecting:_:)``, also keeping, for each source read that is not in
    /// `expected`, its count of changes when it was read (see ``TrackedReads``); `nil`
    /// if exactly `expected` was read (so that the common case has nothing to release).
    /// `context` is this thread's (``BatchContext/ofThisThread``), which the caller has.
    static func trackChanges(
        expecting expected: [any DependencySource], in context: Unmanaged<BatchContext>,
        trusting trustedOwner: ObjectIdentifier?, _ body: () -> Void
    ) -> TrackedReads? {
        expected.withUnsafeBufferPointer { expected in
            var recorder = Recorder(expected: expected, context: context)
            recorder.trustedOwner = trustedOwner
            recorder.keepsVersions = true
            session(&recorder, body)
            // Versions are kept only for reads that departed from `expected`.
            guard let sources = recorder.result else { return nil }
            let versions = recorder.departure?.versions
            recorder.departure.take()?.recycle(into: context)
            return TrackedReads(sources: sources, versions: versions)
        }
    }

    /// Runs `body` with `recorder` as this thread's session: the thread-local state
    /// points at it only while `body` runs (then at the session it nests in, if any), so
    /// the pointer never outlives the `withUnsafeMutablePointer` that made it. Always
    /// inlined, so that `body` is too (see ``trackInlined(expecting:trusting:_:)``).
    @inlinable @inline(__always)
    static func session(_ recorder: inout Recorder, _ body: () -> Void) {
        let previous = bindings_thread_session()
        withUnsafeMutablePointer(to: &recorder) { recorder in
            bindings_set_thread_session(UnsafeMutableRawPointer(recorder))
            body()
            bindings_set_thread_session(previous)
        }
    }

    /// What ``trackChanges(expecting:in:_:)`` found when the reads departed from what
    /// was expected: a plain value, so that a run allocates nothing it need not.
    struct TrackedReads {
        /// What was read, each source once, in order.
        let sources: [any DependencySource]
        /// For each source read that was not expected, its count of changes when read;
        /// `nil` when there is none.
        let versions: [ObjectIdentifier: UInt]?

        /// Whether a source read for the first time changed after it was read. Call it
        /// once links with the sources exist: a change made before that reached nobody.
        func changedSinceRead() -> Bool {
            guard let versions else { return false }
            return sources.contains { source in
                versions[ObjectIdentifier(source)].map { $0 != source.changeCount.version } ?? false
            }
        }
    }

    /// Runs `body`, returning its result and every source it read (each once, in order).
    static func track<T>(_ body: () -> T) -> (T, [any DependencySource]) {
        var result: T?
        let sources = track(expecting: []) { result = body() }
        return (result!, sources ?? [])
    }

    /// The tracking session of the current thread, or `nil` if it is not tracking: one
    /// load of the thread's state, so that a read on a thread that does not track pays
    /// nothing more (and creates no channel) when another thread tracks. Valid until the
    /// read that asked returns: the session lives on the stack of the tracking function
    /// running the read (``track(expecting:trusting:_:)``, ``trackInlined(expecting:trusting:_:)``
    /// or ``trackChanges(expecting:in:trusting:_:)``).
    @inlinable
    static var currentSession: UnsafeMutableRawPointer? { bindings_thread_session() }

    /// Whether `session` (the ``currentSession`` of this read) trusts reads of `owner` to
    /// look channels up without the creation lock (see ``Recorder/trustedOwner``).
    @inlinable @inline(__always)
    static func trusts(_ owner: ObjectIdentifier, session: UnsafeMutableRawPointer) -> Bool {
        session.assumingMemoryBound(to: Recorder.self).pointee.trustedOwner == owner
    }

    /// Reports to `session` (the ``currentSession`` of this read) that the current thread
    /// read the source that `id` names; `source` gives the reference, only if kept.
    ///
    /// The common case, the next read expected, is matched here, inlined into the getter;
    /// the rest is out of line.
    @inlinable
    static func record(_ id: ObjectIdentifier, into session: UnsafeMutableRawPointer, _ source: () -> any DependencySource) {
        let recorder = session.assumingMemoryBound(to: Recorder.self)
        let matched = recorder.pointee.matched
        if recorder.pointee.departure == nil, matched < recorder.pointee.expected.count,
           ObjectIdentifier(recorder.pointee.expected[matched]) == id {
            recorder.pointee.matched = matched &+ 1
            return
        }
        recorder.pointee.record(id, source)
    }
}
