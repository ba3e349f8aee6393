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
///   The first change of a channel makes its entry, at the end of ``entries`` (the order
///   in which the key paths first changed); a later one updates that entry's new value.
///   The entry keeps the old value of the first change. Derived channels (computed and
///   chained key paths) send nothing meanwhile: their dependencies' changes are held.
/// - **Flushing** (after it): the entries are delivered one at a time, in order, each as
///   one change from its first old value to its last new value. A change sent during the
///   flush (a callback sets a model) is recorded too: into the entry of that channel if it
///   is still waiting, else into a new entry at the end, so it is delivered in the same
///   flush, after the current one (never stale). A derived key path re-evaluates when the
///   first of its dependencies is delivered and sees every change made before; a later
///   dependency's delivery reaches it again only if that dependency changed after the
///   evaluation (``isRepeat(_:)``), so each observer gets one notification per changed key
///   path. A derived channel's own change is delivered at once, during its dependency's.
/// - Prior notices pass once per channel: before its first change in the batch, and again
///   only after its change was delivered (``allowsPrior(_:)``).
///
/// One context per thread, reachable through a thread-local key only while a batch runs
/// on that thread: a batch belongs to the thread that runs it, the isolation of the
/// models it sets. Every field is touched only by that thread.
@usableFromInline
final class BatchContext {
    /// The number of threads with a batch under way: every check first reads this, so
    /// that a program that never batches pays one relaxed load per observed change.
    @usableFromInline static let activeThreads = Atomic<Int>(0)

    /// Nesting of `batchChanges` bodies: inner batches join the outermost.
    var depth = 0
    /// Set once the outermost body returned: the entries are being delivered.
    var flushing = false
    /// Changes waiting to be delivered, in the order their channels first changed;
    /// delivered ones are set to `nil` (the list is short-lived).
    var entries: [BatchEntry?] = []
    var head = 0
    /// Counts the changes recorded: an entry carries the count at its last change, and a
    /// dependent the count when it last evaluated, which tells whether it has seen the
    /// entry's value (``isRepeat(_:)``).
    var stamp: UInt64 = 0
    /// The stamp of the entry being delivered.
    var deliveringStamp: UInt64 = 0
    /// Channels whose prior notice went out and whose change is not yet delivered, held
    /// so that an identifier is not reused by another object during the batch.
    var priorSent: [ObjectIdentifier: AnyObject] = [:]
    /// Dependents (derived observations, reactions) that evaluated during the flush, held
    /// for the same reason, with the stamp at which they evaluated.
    var evaluated: [ObjectIdentifier: (dependent: AnyObject, stamp: UInt64)] = [:]
    /// How many times each reaction ran in this flush (see `Reaction`).
    var runs: [ObjectIdentifier: Int] = [:]

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether any thread has a batch under way.
    @inlinable
    static var isActive: Bool { activeThreads.load(ordering: .relaxed) != 0 }

    /// The context of the current thread, if it has a batch under way. The thread-local
    /// slot holds it unretained: the `batchChanges` call that made it holds it until the
    /// flush is over, and clears the slot first.
    static var current: BatchContext? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<BatchContext>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Enters a batch on the current thread and returns its context, and whether this is
    /// the outermost batch (whose caller must call ``finish()``).
    static func enter() -> (context: BatchContext, outermost: Bool) {
        if let context = current {
            context.depth += 1
            return (context, false)
        }
        let context = BatchContext()
        context.depth = 1
        pthread_setspecific(key, Unmanaged.passUnretained(context).toOpaque())
        activeThreads.add(1, ordering: .relaxed)
        return (context, true)
    }

    /// Leaves an inner batch.
    func leave() {
        depth -= 1
    }

    /// Ends the outermost batch: delivers every entry (and what the deliveries add), then
    /// clears the thread's slot.
    func finish() {
        depth -= 1
        flushing = true
        defer {
            pthread_setspecific(Self.key, nil)
            Self.activeThreads.subtract(1, ordering: .relaxed)
        }
        while head < entries.count {
            guard let entry = entries[head] else {
                head += 1
                continue
            }
            entries[head] = nil
            head += 1
            deliveringStamp = entry.stamp
            priorSent[entry.id] = nil
            entry.deliver()
        }
    }

    /// Records a change of `channel` (a stored property's, a hand-notified key path's)
    /// made on this thread during the batch; a derived channel's is delivered at once.
    /// Returns whether the change was recorded, and so must not be sent now.
    @usableFromInline
    static func intercept<Value>(_ channel: PropertyChannel<Value>, old: Value?, new: Value) -> Bool {
        guard let context = current else { return false }
        let id = ObjectIdentifier(channel)
        if channel.isDerived {
            context.priorSent[id] = nil
            return false
        }
        context.stamp &+= 1
        for index in context.head..<context.entries.count {
            guard let entry = context.entries[index], entry.id == id else { continue }
            let waiting = unsafeDowncast(entry, to: ChannelBatchEntry<Value>.self)
            waiting.new = channel.mergeInBatch.map { $0(waiting.new, new) } ?? new
            waiting.stamp = context.stamp
            return true
        }
        context.entries.append(ChannelBatchEntry(channel: channel, old: old, new: new, stamp: context.stamp))
        return true
    }

    /// Whether a prior notice of `channel` may go out now: once before its first change
    /// in the batch, and once more after each delivery of its change.
    @usableFromInline
    static func allowsPrior(_ channel: AnyObject) -> Bool {
        guard let context = current else { return true }
        let id = ObjectIdentifier(channel)
        if context.priorSent[id] != nil { return false }
        context.priorSent[id] = channel
        return true
    }

    /// Counts a run of `reaction` in the flush under way on this thread, and returns the
    /// count so far; 0 outside a flush.
    static func countRun(_ reaction: AnyObject) -> Int {
        guard let context = current, context.flushing else { return 0 }
        let id = ObjectIdentifier(reaction)
        let runs = (context.runs[id] ?? 0) + 1
        context.runs[id] = runs
        return runs
    }

    /// Whether `dependent` has already evaluated since the change now being delivered was
    /// made (it then has nothing new to see); otherwise records that it evaluates now.
    static func isRepeat(_ dependent: AnyObject) -> Bool {
        guard let context = current, context.flushing else { return false }
        let id = ObjectIdentifier(dependent)
        if let last = context.evaluated[id], last.stamp >= context.deliveringStamp { return true }
        context.evaluated[id] = (dependent, context.stamp)
        return false
    }
}

/// A change held back by a batch, delivered at its end.
class BatchEntry {
    /// The channel's identity.
    let id: ObjectIdentifier
    /// The batch's stamp at the entry's last change (see ``BatchContext/stamp``).
    var stamp: UInt64

    init(id: ObjectIdentifier, stamp: UInt64) {
        self.id = id
        self.stamp = stamp
    }

    /// Delivers the change.
    func deliver() {}
}

/// A property channel's change held back by a batch.
final class ChannelBatchEntry<Value>: BatchEntry {
    /// Strong, as every reference to a channel: the model's end closes it, and a closed
    /// channel delivers nothing.
    let channel: PropertyChannel<Value>
    /// The value before the batch's first change, if some observer wanted it then.
    var old: Value?
    /// The value of the last change.
    var new: Value

    init(channel: PropertyChannel<Value>, old: Value?, new: Value, stamp: UInt64) {
        self.channel = channel
        self.old = old
        self.new = new
        super.init(id: ObjectIdentifier(channel), stamp: stamp)
    }

    /// Delivered through each observer's `receive(_:)`, as a queued event is: the flush
    /// does not hold the model (see `PropertyChannel.call`), which may be gone.
    override func deliver() {
        channel.send(PropertyEvent(isPrior: false, old: old, new: new))
    }
}
