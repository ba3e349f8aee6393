import Foundation

/// A value guarded by an `NSLock`: what this module uses where `Synchronization.Mutex`
/// would do, because ThreadSanitizer sees an `NSLock` (a pthread mutex) order the
/// accesses it guards, and does not see `Mutex`'s (a futex in the uninstrumented standard
/// library), so it reported the accesses under a `Mutex` as races.
///
/// `@unchecked Sendable`: `value` is only read or written inside `withLock`, with `lock`
/// held; what `body` takes out of it is the caller's to hand over, as with `Mutex`.
final class LockedState<State>: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var value: State

    init(_ value: State) {
        self.value = value
    }

    /// Runs `body` on the value, with the lock held.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
