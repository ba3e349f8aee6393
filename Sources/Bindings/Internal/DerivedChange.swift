import Synchronization

/// The work a derived observation does at each change of a dependency, made where the
/// observed key path's types are known.
///
/// Run as the unspecialized generic code of ``DerivedObservation``, a change spends most
/// of its time looking up generic metadata (`Value?`, `PropertyEvent<Value>`, the
/// channel's types), several per change. `publisher(for:)` and `observe(_:)` are
/// inlined where they are called, with concrete types, and make this there: the closure
/// it holds, and everything the change runs through it, is compiled for those types.
///
/// It also holds the key path, in the same closure: applying a key path object costs
/// most of a change (~300 ns for `\.child.value`), but a key path literal with a single
/// use that a closure captures is propagated into the closure by the optimizer, which
/// then reads the properties directly. So the key path written at the call site goes
/// into this closure and nowhere else, and whoever needs it asks the closure: to do a
/// change's work, to read the value (the look-up that resolves an observation), or for
/// the key path object itself, which only that request makes (out of line, so that the
/// other two never make one).
@usableFromInline
struct DerivedSpecialization<Root: KeyValueObservable, Value> {
    /// What the closure is asked to do.
    @usableFromInline
    enum Request {
        /// An observation's change, with the indexed change, if any, passed on, and
        /// whether the root is held by the caller (see `DependentHandler`).
        case change(DerivedObservation<Root, Value>, IndexedChange?, rootHeld: Bool)
        /// Read the value (into the `inout` argument).
        case read(Root)
        /// Write the value of the `inout` argument (made by ``init(writable:)`` only).
        case write(Root)
        /// Return the key path.
        case keyPath
    }

    @usableFromInline let body: (Request, inout Value?) -> KeyPath<Root, Value>?
    /// A change's work, made here, where the types are known, so that the observation
    /// (generic code) calls it with no generic metadata look-up.
    @usableFromInline let change: (DerivedObservation<Root, Value>, IndexedChange?, Bool) -> Void

    @inlinable
    init(_ keyPath: KeyPath<Root, Value>) {
        let body: (Request, inout Value?) -> KeyPath<Root, Value>? = { request, value in
            switch request {
            case .change(let observation, let indexed, let rootHeld):
                observation.didChange(indexed: indexed, rootHeld: rootHeld) { root in root[keyPath: keyPath] }
                return nil
            case .read(let root):
                value = root[keyPath: keyPath]
                return nil
            case .write:
                preconditionFailure("a read-only key path is not written")
            case .keyPath:
                return materializeKeyPath(keyPath)
            }
        }
        self.init(body: body)
    }

    /// The same for a writable key path, which ``write(_:_:)`` also sets: one closure
    /// holds the key path for reading and writing, so that both become property accesses
    /// (a key path that a second closure captured too was applied at run time, about
    /// 200 ns a write into a model that is weakly referenced: a slow retain and release
    /// of the model, and for an `@Observed` property a write-back buffer). For the same
    /// reason its closure repeats the read-only one's cases rather than call that closure:
    /// two closures would each capture the key path.
    @inlinable
    init(writable keyPath: ReferenceWritableKeyPath<Root, Value>) {
        let body: (Request, inout Value?) -> KeyPath<Root, Value>? = { request, value in
            switch request {
            case .change(let observation, let indexed, let rootHeld):
                observation.didChange(indexed: indexed, rootHeld: rootHeld) { root in root[keyPath: keyPath] }
                return nil
            case .read(let root):
                value = root[keyPath: keyPath]
                return nil
            case .write(let root):
                root[keyPath: keyPath] = value.take()!
                return nil
            case .keyPath:
                return materializeKeyPath(keyPath)
            }
        }
        self.init(body: body)
    }

    @inlinable
    init(body: @escaping (Request, inout Value?) -> KeyPath<Root, Value>?) {
        self.body = body
        change = { observation, indexed, rootHeld in
            var unused: Value?
            _ = body(.change(observation, indexed, rootHeld: rootHeld), &unused)
        }
    }

    /// Sets the value at the key path of a specialization made by ``init(writable:)``.
    @inlinable
    func write(_ root: Root, _ newValue: Value) {
        var value: Value? = newValue
        _ = body(.write(root), &value)
    }

    /// The observed key path.
    @inlinable
    var keyPath: KeyPath<Root, Value> {
        var unused: Value?
        return body(.keyPath, &unused)!
    }

    /// The value at the key path, read with the key path folded into property accesses.
    @inlinable
    func read(_ root: Root) -> Value {
        var value: Value?
        _ = body(.read(root), &value)
        return value!
    }

}

/// Returns the key path that `keyPath` makes; out of line, with an autoclosure, so that
/// the optimizer specializes it for the literal and makes the key path object only here.
@usableFromInline @inline(never)
func materializeKeyPath<Root, Value>(_ keyPath: @autoclosure () -> KeyPath<Root, Value>) -> KeyPath<Root, Value> {
    keyPath()
}

extension DerivedObservation {
    /// Evaluates again after a dependency changed (with `evaluate`, the key path's
    /// getter), follows what the evaluation read, and publishes the value.
    ///
    /// The common case (the evaluation reads what the last one read, nobody wants old
    /// values) takes the lock once, allocates nothing and leaves the links alone. The
    /// links follow before the value is published, so that a callback that sets a new
    /// dependency is heard.
    ///
    /// `rootHeld`: the caller holds the root (a set on it, see `DependentHandler`), which
    /// is then used unretained, with no weak load, and the evaluation's reads of it skip
    /// the creation lock (see `DependencyTracking.Recorder.trustedOwner`).
    @inlinable @inline(__always)
    func didChange(indexed: IndexedChange? = nil, rootHeld: Bool = false, evaluate: (Root) -> Value) {
        if rootHeld {
            heldRoot._withUnsafeGuaranteedRef { didChange(root: $0, indexed: indexed, trusted: true, evaluate: evaluate) }
        } else if let root {
            // The root stays alive until the change is delivered: an observer called from
            // the send is given it without a weak load (see `PropertyChannel.call`).
            withExtendedLifetime(root) { didChange(root: root, indexed: indexed, trusted: false, evaluate: evaluate) }
        } else {
            end()
        }
    }

    /// ``didChange(indexed:rootHeld:evaluate:)`` with the root, which the caller holds;
    /// `trusted`: the root is the model whose set this thread is delivering.
    @inlinable @inline(__always)
    func didChange(root: Root, indexed: IndexedChange?, trusted: Bool, evaluate: (Root) -> Value) {
        lock.lock()
        // A link being detached may still hear an event already under way.
        guard active, !ended, self.channel != nil, let channel = ownChannel else {
            lock.unlock()
            return
        }
        // Idle: nobody to tell, and the links may no longer be what an evaluation would
        // read. Leaves (see `DerivedObservation`).
        guard interest > 0 else {
            leaveWhileIdle()
            return
        }
        let expected = tracked
        lock.unlock()
        var value: Value?
        let sources = DependencyTracking.trackInlined(expecting: expected, trusting: trusted ? rootID : nil) {
            value = evaluate(root)
            if valueMayBeStorage, let source = storageSource(value!) { DependencyTracking.recordStorage(source) }
            if !affecting.isEmpty { readAffecting(root) }
        }
        if let sources { relink(to: sources) }
        let indexed = indexed.flatMap { ownIndexedChange($0, value: value!, root: root) }
        let old = lastValue.isWanted ? lastValue.swap(value!) : nil
        // Unretained: the link whose delivery runs this change holds the channel until
        // it is released, which is after this returns (see `DependentObserver.keeper`);
        // the observation's own reference may go meanwhile (the last observer left on
        // another thread). A retain and a release each change: computed set + notify
        // measured 53-56 -> 47.5-48.5 ns without them.
        channel._withUnsafeGuaranteedRef { channel in
            if let indexed {
                if indexed.kind == .setting {
                    // A set notified by hand: its old value is the one announced before it
                    // (see `IndexedChange.setting(from:key:object:)`), not the last sent.
                    channel.sendChange(old: old == nil ? nil : indexed.oldElements as? Value ?? old, new: value!)
                } else {
                    channel.sendChange(old: old, new: value!, indexed: indexed)
                }
            } else {
                channel.sendChange(old: old, new: value!)
            }
        }
    }
}
