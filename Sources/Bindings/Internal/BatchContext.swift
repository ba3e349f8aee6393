import CBindingsThreadLocal
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The state of `batchChanges` on one thread: the changes held back while the outermost
/// batch runs, and then the flush that delivers them.
///
/// Contract (see `batchChanges(_:)` for the user's side):
/// - **Collecting** (inside the outermost body): a change sent on an observed property's
///   channel on this thread is recorded instead of delivered (``intercept(_:old:new:)``).
///   The first change of a channel puts the channel's entry at the end of the list (the
///   order in which the key paths first changed), with the old value of that change; a
///   later one replaces the entry's new value. Derived channels (computed and chained
///   key paths) send nothing meanwhile: their dependencies' changes are held.
/// - **Flushing** (after it): the entries are delivered one at a time, in order, each as
///   one change from its first old value to its last new value. A change sent during the
///   flush (a callback sets a model) is recorded too: into its channel's entry if that is
///   still waiting, else at the end of the list, so that it is delivered in the same
///   flush, after the current one (never stale). A derived key path evaluates when the
///   first of its dependencies is delivered, and sees every change made before; a later
///   dependency's delivery reaches it again only if that dependency changed after the
///   evaluation (``BatchMark``), so each observer gets one notification per changed key
///   path. A derived channel's own change is delivered at once, during its dependency's.
/// - **Prior notices** pass once per channel: before its first change in the batch, and
///   again only after that change was delivered (``allowsPrior(_:)``).
/// - **Sources that batches do not hold** (an `ObservableArray`, whose `changes`
///   subscribers get each changeset at once): the key paths and reactions that depend on
///   one hold its changes here instead (``deferChange(reaching:)``), so that they too
///   are evaluated once, in the flush, in order with the rest.
/// - **Where a held change came from** travels with it to its delivery, for those who
///   must tell one notification from another when several sets make one: the two-way
///   binding whose write was the last set (``writer``, so that the binding knows its own
///   echo, see `TwoWayLink`), and how long a chain of reactions' runs caused it
///   (``deliveringDepth``, so that a reaction that keeps changing what it reads, directly
///   or through other reactions and observers, is stopped, and nothing else is, see
///   `Reaction`).
///
/// One context per thread, made by its first batch or tracking session and kept for the
/// thread's life (its lists keep their capacity, so that a batch allocates nothing in
/// steady state): held by a thread-local key, and found through the thread's state in
/// `CBindingsThreadLocal`, which also points at it while a batch is under way
/// (``isActive``). A batch belongs to the thread that runs it, the
/// isolation of the models it sets, and every field here is touched only by that thread.
/// A channel's entry (``PropertyChannel/batchEntry``) is touched only by the thread that
/// sets the channel's model, which is that same thread while the channel is in a batch.
///
/// `@exclusivity(unchecked)` on the fields here and in the entries: one thread touches
/// them, and no access spans a call that could touch them again (``finish()`` copies an
/// entry out of the list before delivering it); dynamic checks measured a quarter of a
/// batch.
@usableFromInline
final class BatchContext {
    /// Gives each context a range of 2^32 flush numbers of its own, so that a mark left
    /// by one flush is never taken for another's (see ``BatchMark``).
    private static let contexts = Atomic<UInt64>(0)

    /// Nesting of `batchChanges` bodies: inner batches join the outermost.
    @exclusivity(unchecked) @usableFromInline var depth = 0
    /// Set once the outermost body returned: the entries are being delivered.
    @exclusivity(unchecked) @usableFromInline var flushing = false
    /// This batch's number among all threads' (``flushes``).
    @exclusivity(unchecked) @usableFromInline var flush: UInt64 = 0
    /// Counts the changes recorded: an entry carries the count at its last change, and a
    /// dependent the count when it last evaluated, which tells whether it has seen the
    /// entry's value (``BatchMark``).
    @exclusivity(unchecked) @usableFromInline var stamp: UInt64 = 0
    /// The stamp of the entry being delivered.
    @exclusivity(unchecked) @usableFromInline var deliveringStamp: UInt64 = 0
    /// The two-way binding writing on this thread, if any (`TwoWayLink`'s token of the
    /// side it writes; 0 for every other set): recorded with each change held meanwhile.
    @exclusivity(unchecked) @usableFromInline var writer: UInt = 0
    /// The writer of the last set of the entry being delivered (see ``writer``).
    @exclusivity(unchecked) var deliveringWriter: UInt = 0
    /// While a reaction's closure runs on this thread, the depth of the changes it makes:
    /// one more than the depth of the change that ran it; 0 otherwise.
    @exclusivity(unchecked) @usableFromInline var runDepth = 0
    /// The depth of the entry being delivered: how many reactions' runs, one causing the
    /// next, led to its last change. A change made by a reaction's closure is one deeper
    /// than the change that ran the reaction; one made by a callback during a delivery is
    /// as deep as the change delivered (so that a cycle through plain observers deepens
    /// too); any other is 0.
    @exclusivity(unchecked) @usableFromInline var deliveringDepth = 0

    /// The depth of a change made now (see ``deliveringDepth``).
    @inlinable
    var depthOfChangeNow: Int { runDepth > 0 ? runDepth : (flushing ? deliveringDepth : 0) }
    /// The entries waiting to be delivered, in order.
    @exclusivity(unchecked) @usableFromInline var waiting: [Unmanaged<BatchEntry>] = []
    /// The channels of the entries made waiting, and the entries of changes held for
    /// links (``deferChange(reaching:)``), retained until the end of the flush: an
    /// entry lives as long as its channel, which owns it, and the model's end may release
    /// the channel before the flush. (Not the model: a set made in its `deinit` would
    /// have the batch hold it past its end.)
    @exclusivity(unchecked) @usableFromInline var held: [Unmanaged<AnyObject>] = []
    @exclusivity(unchecked) @usableFromInline var head = 0
    /// Entries whose prior notice went out, to clear at the end (their channels are in
    /// ``held``).
    @exclusivity(unchecked) @usableFromInline var noticed: [Unmanaged<BatchEntry>] = []
    /// Derived channels whose prior notice went out and whose change has not: a derived
    /// channel's sends may come from several threads, so its flag is kept here, on the
    /// batching thread, rather than in an entry of the channel. Rare (prior notices of a
    /// computed key path), so a list.
    @exclusivity(unchecked) @usableFromInline var derivedNoticed: [AnyObject] = []
    /// A tracking session's departure from its expected reads, kept for the next one (see
    /// `DependencyTracking.Recorder.Departure`).
    @exclusivity(unchecked) var spareDeparture: DependencyTracking.Recorder.Departure?

    /// Holds the thread's context, which goes with the thread: the key's destructor, run
    /// on the exiting thread, clears the thread-local state's pointer to it, then
    /// releases it. (The thread-local state is read on the hot paths, and has no
    /// destructor of its own.)
    static let key = ThreadLocalKey { raw in
        bindings_set_thread_context(nil)
        #if canImport(Darwin)
        Unmanaged<BatchContext>.fromOpaque(raw).release()
        #else
        if let raw { Unmanaged<BatchContext>.fromOpaque(raw).release() }
        #endif
    }

    /// Whether the current thread has a batch under way (collecting or flushing): one
    /// load of its thread-local state. Another thread's batch changes nothing here.
    @inlinable
    static var isActive: Bool { bindings_thread_batch() != nil }

    /// The context of the current thread, if it has a batch under way.
    @inlinable
    static var current: BatchContext? {
        withCurrent { $0 }
    }

    /// Calls `body` with the context of the current thread if it has a batch under way,
    /// with no retain of it (the thread-local key holds it for the thread's life).
    @inlinable @inline(__always)
    static func withCurrent<Result>(_ body: (BatchContext) -> Result) -> Result? {
        guard let raw = bindings_thread_batch() else { return nil }
        return Unmanaged<BatchContext>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
    }

    /// The context of the current thread, made (and kept, retained by the thread-local
    /// key) the first time; unretained: the key holds it. Inlined: one load of the
    /// thread's state, where a call also looked up this class's metadata to pass it.
    @inlinable
    static var ofThisThread: Unmanaged<BatchContext> {
        if let raw = bindings_thread_context() { return Unmanaged.fromOpaque(raw) }
        return makeForThisThread()
    }

    /// Makes the current thread's context (its first batch or tracking session).
    @usableFromInline @inline(never)
    static func makeForThisThread() -> Unmanaged<BatchContext> {
        let made = BatchContext()
        made.flush = contexts.add(1, ordering: .relaxed).newValue << 32
        let context = Unmanaged.passRetained(made)
        key.set(context.toOpaque())
        bindings_set_thread_context(context.toOpaque())
        return context
    }

    /// Runs `body` as a batch on the current thread: joined to the batch under way, if
    /// any, or else the outermost, whose end delivers what the batch held (also when
    /// `body` throws).
    /// `body` is given the context (unretained), for a caller that needs it too, such as
    /// a reaction's run, whose tracking session it holds: one thread-local look-up for both.
    static func batch<Result>(_ body: (Unmanaged<BatchContext>) throws -> Result) rethrows -> Result {
        // Unretained across `body`: the thread-local slot holds the context for the
        // thread's life, and `body` runs on this thread.
        let context = ofThisThread
        let outermost = context._withUnsafeGuaranteedRef { $0.enter() }
        defer { context._withUnsafeGuaranteedRef { outermost ? $0.finish() : $0.leave() } }
        return try body(context)
    }

    /// Enters a batch. Returns whether this is the outermost batch (the one whose end
    /// delivers what the batch held).
    private func enter() -> Bool {
        depth += 1
        if depth > 1 || flushing { return false }
        flush &+= 1
        bindings_set_thread_batch(Unmanaged.passUnretained(self).toOpaque())
        return true
    }

    /// Leaves an inner batch.
    private func leave() {
        depth -= 1
    }

    /// Ends the outermost batch: delivers every entry (and what the deliveries add).
    private func finish() {
        depth -= 1
        if waiting.isEmpty, noticed.isEmpty, held.isEmpty, derivedNoticed.isEmpty {
            // Nothing was held (a reaction's run that set nothing, say).
            bindings_set_thread_batch(nil)
            return
        }
        flushing = true
        repeat {
            while head < waiting.count {
                let entry = waiting[head]
                head += 1
                entry._withUnsafeGuaranteedRef { entry in
                    entry.isWaiting = false
                    entry.priorSent = false
                    deliveringStamp = entry.stamp
                    deliveringWriter = entry.writer
                    deliveringDepth = entry.depth
                    entry.writer = 0
                    entry.depth = 0
                    entry.deliver(entry)
                    deliveringWriter = 0
                    deliveringDepth = 0
                }
            }
            if head > 0 {
                waiting.removeAllKeepingCapacity()
                head = 0
            }
            for entry in noticed { entry._withUnsafeGuaranteedRef { $0.priorSent = false } }
            noticed.removeAllKeepingCapacity()
            if !held.isEmpty {
                // Released here, after the deliveries: a deinit that this runs may set a
                // model, which joins this flush (the loop delivers it).
                var released: [Unmanaged<AnyObject>] = []
                swap(&released, &held)
                for channel in released { channel.release() }
                if held.isEmpty {
                    released.removeAllKeepingCapacity()
                    swap(&released, &held)
                }
            }
        } while head < waiting.count || !held.isEmpty
        var derived: [AnyObject] = []
        if !derivedNoticed.isEmpty { swap(&derived, &derivedNoticed) }
        flushing = false
        bindings_set_thread_batch(nil)
        withExtendedLifetime(derived) {}   // released last: a deinit may batch again
    }

    /// Records a change of `channel` (a stored property's, a hand-notified key path's)
    /// made on this thread during a batch; a derived channel's is delivered at once.
    /// Returns whether the change was recorded, and so must not be sent now.
    ///
    /// Inlined into the channel's send, where `Value` is known: the entry it makes, and
    /// the delivery the entry keeps, are specialized there.
    @inlinable
    static func intercept<Value>(_ channel: PropertyChannel<Value>, old: Value?, new: Value) -> Bool {
        withCurrent { $0.record(channel, old: old, new: new) } ?? false
    }

    /// ``intercept(_:old:new:)`` on this context.
    @inlinable
    func record<Value>(_ channel: PropertyChannel<Value>, old: Value?, new: Value) -> Bool {
        let context = self
        if channel.isDerived {
            if !context.derivedNoticed.isEmpty { context.derivedNoticed.removeAll { $0 === channel } }
            return false
        }
        context.stamp &+= 1
        let unmanaged = channel.batchEntry ?? ChannelBatchEntry.make(for: channel)
        unmanaged._withUnsafeGuaranteedRef { entry in
            if entry.isWaiting {
                entry.new = new
            } else {
                entry.isWaiting = true
                entry.flush = context.flush
                entry.old = old
                entry.new = new
                context.waiting.append(Unmanaged.passUnretained(entry))
                context.held.append(Unmanaged.passRetained(channel))
            }
            entry.stamp = context.stamp
            // The two-way binding's own set is the first this write makes; a set nested in
            // it (the side's `didSet` correcting the value) is not the binding's.
            entry.writer = context.writer
            context.writer = 0
            let depth = context.depthOfChangeNow
            if depth > entry.depth { entry.depth = depth }
        }
        return true
    }

    /// Holds, for this batch's flush, a change of a source that batches do not hold (see
    /// `PropertyChannel.notifiesInBatches`) reaching `link`, a dependency link of a key
    /// path or a reaction: the flush passes it on to the link's dependent, with no
    /// indexed change (several edits held make one change of the key path). Each such
    /// change gets an entry of its own, made here (rare: an `ObservableArray` edited in a
    /// batch), retained until the end of the flush with the link: the dependent's first
    /// delivery evaluates, and the others find they were seen (``BatchMark``).
    func deferChange<Value>(reaching link: DependentObserver<Value>) {
        stamp &+= 1
        let entry = BatchEntry { _ in
            if !link.isCancelled { link.dependent.dependencyDidChange(nil, setOwner: nil) }
        }
        entry.isWaiting = true
        entry.stamp = stamp
        entry.depth = depthOfChangeNow
        waiting.append(Unmanaged.passUnretained(entry))
        held.append(Unmanaged.passRetained(entry))
    }

    /// Whether a prior notice of `channel` may go out now: once before its first change
    /// in the batch, and once more after each delivery of its change.
    @inlinable
    static func allowsPrior<Value>(_ channel: PropertyChannel<Value>) -> Bool {
        withCurrent { $0.allowsPrior(channel) } ?? true
    }

    /// ``allowsPrior(_:)`` on this context.
    @inlinable
    func allowsPrior<Value>(_ channel: PropertyChannel<Value>) -> Bool {
        let context = self
        if channel.isDerived {
            if context.derivedNoticed.contains(where: { $0 === channel }) { return false }
            context.derivedNoticed.append(channel)
            return true
        }
        let unmanaged = channel.batchEntry ?? ChannelBatchEntry.make(for: channel)
        return unmanaged._withUnsafeGuaranteedRef { entry in
            if entry.priorSent { return false }
            entry.priorSent = true
            context.noticed.append(Unmanaged.passUnretained(entry))
            context.held.append(Unmanaged.passRetained(channel))
            return true
        }
    }
}

/// What a dependent (a derived observation, a reaction) keeps, under its own lock, so
/// that a flush reaches it once for all the changes made before it evaluated.
struct BatchMark {
    /// The flush in which it last evaluated, and the stamp then.
    private var flush: UInt64 = 0
    private var stamp: UInt64 = 0

    /// Whether the change being delivered by `context`'s flush was made before the
    /// dependent's last evaluation in that flush (nothing new to see); otherwise notes
    /// that it evaluates now.
    mutating func isRepeat(in context: BatchContext) -> Bool {
        guard context.flushing else { return false }
        if flush == context.flush, stamp >= context.deliveringStamp { return true }
        flush = context.flush
        stamp = context.stamp
        return false
    }
}

/// A channel's change held back by a batch; one per channel, made by its first batch and
/// reused by the next ones.
@usableFromInline
class BatchEntry {
    /// In the context's list of changes waiting to be delivered.
    @exclusivity(unchecked) @usableFromInline final var isWaiting = false
    /// A prior notice of the channel went out in this batch.
    @exclusivity(unchecked) @usableFromInline final var priorSent = false
    /// The batch's stamp at the entry's last change (see ``BatchContext/stamp``).
    @exclusivity(unchecked) @usableFromInline final var stamp: UInt64 = 0
    /// The flush of the batch it waits in (see ``BatchContext/flush``): tells a thread
    /// whether the entry waits in its own batch.
    @exclusivity(unchecked) @usableFromInline final var flush: UInt64 = 0
    /// The two-way binding that made the last change, if one did (see
    /// ``BatchContext/writer``).
    @exclusivity(unchecked) @usableFromInline final var writer: UInt = 0
    /// The deepest chain of reactions' runs that led to one of the changes held (see
    /// ``BatchContext/deliveringDepth``).
    @exclusivity(unchecked) @usableFromInline final var depth = 0
    /// Delivers the change: code specialized for the channel's value type where the
    /// entry was made (a method of the generic subclass would run generic code).
    @usableFromInline final let deliver: (BatchEntry) -> Void

    @inlinable
    init(deliver: @escaping (BatchEntry) -> Void) {
        self.deliver = deliver
    }
}

/// A property channel's ``BatchEntry``.
@usableFromInline
final class ChannelBatchEntry<Value>: BatchEntry {
    /// The channel owns its entry: while the entry waits, the context retains the
    /// channel. Used with no retain of its own (a retain and a release per delivery,
    /// which `unowned(unsafe)` still made).
    @usableFromInline let channel: Unmanaged<PropertyChannel<Value>>
    /// The value before the batch's first change, if some observer wanted it then.
    @exclusivity(unchecked) @usableFromInline var old: Value?
    /// The value of the last change.
    @exclusivity(unchecked) @usableFromInline var new: Value?

    @inlinable
    init(channel: PropertyChannel<Value>, deliver: @escaping (BatchEntry) -> Void) {
        self.channel = Unmanaged.passUnretained(channel)
        super.init(deliver: deliver)
    }

    /// Makes `channel`'s entry. Inlined where `Value` is known, so that the delivery is
    /// specialized.
    @inlinable
    static func make(for channel: PropertyChannel<Value>) -> Unmanaged<ChannelBatchEntry> {
        let entry = ChannelBatchEntry(channel: channel) { entry in
            let entry = unsafeDowncast(entry, to: ChannelBatchEntry<Value>.self)
            let old = entry.old
            let new = entry.new
            entry.old = nil
            entry.new = nil
            // Every waiting entry has a new value (see `record`).
            guard let new else { return }
            // As a set sends (no event unless it must wait), but without holding the
            // model (see `PropertyChannel.callWithoutHolding`).
            entry.channel._withUnsafeGuaranteedRef {
                $0.deliverChange(old: old, new: new, indexed: nil, objectHeld: false)
            }
        }
        // Owned by the channel, which releases it in its deinit.
        let unmanaged = Unmanaged.passRetained(entry)
        channel.batchEntry = unmanaged
        return unmanaged
    }
}
