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
/// into this closure and nowhere else, and whoever needs it asks the closure.
@usableFromInline
struct DerivedSpecialization<Root: KeyValueObservable, Value> {
    /// Given an observation, does the work of one of its changes; returns the key path.
    /// The indexed change, if any, is passed on with the change's value.
    @usableFromInline let body: (DerivedObservation<Root, Value>?, IndexedChange?) -> KeyPath<Root, Value>

    @inlinable
    init(_ keyPath: KeyPath<Root, Value>) {
        body = { observation, indexed in
            observation?.didChange(indexed: indexed) { root in root[keyPath: keyPath] }
            return keyPath
        }
    }

    /// The observed key path.
    @inlinable
    var keyPath: KeyPath<Root, Value> { body(nil, nil) }
}

extension DerivedObservation {
    /// Evaluates again after a dependency changed (with `evaluate`, the key path's
    /// getter), follows what the evaluation read, and publishes the value.
    ///
    /// The common case (the evaluation reads what the last one read, nobody wants old
    /// values) takes the lock once, allocates nothing and leaves the links alone. The
    /// links follow before the value is published, so that a callback that sets a new
    /// dependency is heard.
    @inlinable
    func didChange(indexed: IndexedChange? = nil, evaluate: (Root) -> Value) {
        guard let root else {
            end()
            return
        }
        lock.lock()
        // A link being detached may still hear an event already under way.
        guard active, !ended, let channel else {
            lock.unlock()
            return
        }
        let expected = tracked
        lock.unlock()
        var value: Value?
        let sources = DependencyTracking.track(expecting: expected) {
            value = evaluate(root)
            if !affecting.isEmpty { readAffecting(root) }
        }
        if let sources { relink(to: sources) }
        let old = oldWanted.load(ordering: .relaxed) > 0 ? swapLast(value!) : nil
        if let indexed {
            channel.sendChange(old: old, new: value!, indexed: indexed)
        } else {
            channel.sendChange(old: old, new: value!)
        }
    }
}
