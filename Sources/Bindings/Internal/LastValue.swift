import Synchronization

/// The last value a derived observation delivered, kept only while some observer wants
/// old values (`.old`, `.prior`): keeping it otherwise would make every in-place
/// mutation of a copy-on-write value (an array) copy it.
///
/// A class of its own, generic over the value only, so that a chain's forwarding link
/// (see `DependentObserver.forwardTarget`), which knows the value's type but not the
/// root's, keeps it too.
@usableFromInline
final class LastValue<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `value` and `interest` are only touched with `lock` held;
    // `wanted` is atomic.

    @usableFromInline let lock = CompactLock()
    @exclusivity(unchecked) @usableFromInline var value: Value?
    /// The observers that want old values.
    @exclusivity(unchecked) @usableFromInline var interest = 0
    /// `interest`, readable without the lock, so that a change that nobody wants the old
    /// value of takes no lock. Written under the lock.
    @usableFromInline let wanted = Atomic<Int>(0)

    @usableFromInline
    init() {}

    /// Whether some observer wants old values.
    @inlinable
    var isWanted: Bool { wanted.load(ordering: .relaxed) > 0 }

    /// Keeps `new` as the last value and returns the one it replaces; `nil` if no
    /// observer wants old values.
    @inlinable
    func swap(_ new: Value) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard interest > 0 else { return nil }
        let old = value
        value = new
        return old
    }

    /// The last value, if kept.
    func load() -> Value? {
        lock.withLock { value }
    }

    /// Stores the current value, read by the observer that made ``addInterest()``
    /// return `true`.
    func store(_ current: Value?) {
        lock.withLock { if interest > 0 { value = current } }
    }

    /// An observer that wants old values came; `true` for the first one, which then
    /// stores the current value.
    func addInterest() -> Bool {
        lock.withLock {
            interest += 1
            wanted.store(interest, ordering: .relaxed)
            return interest == 1
        }
    }

    /// An observer that wanted old values is gone; the last one drops the value (after
    /// unlocking: its deinit may run user code).
    func removeInterest() {
        var dropped: Value?
        lock.withLock {
            interest -= 1
            wanted.store(interest, ordering: .relaxed)
            if interest == 0 { Swift.swap(&dropped, &value) }
        }
        withExtendedLifetime(dropped) {}
    }
}
