import Foundation

/// A value guarded by a lock, for test bookkeeping that several threads share. As a log
/// (``LockedLog``, a list that threads append to) it has the conveniences below.
///
/// `@unchecked Sendable`: `storage` is only touched with `lock` held.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    package init(_ value: Value) { storage = value }

    /// Runs `body` on the value with the lock held.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }

    /// A copy of the value; setting it replaces the value.
    package var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }
}

/// A list appended to from several threads or from `@Sendable` closures.
package typealias LockedLog<Item> = Locked<[Item]>

extension Locked where Value: RangeReplaceableCollection & BidirectionalCollection {
    /// An empty log.
    package convenience init() { self.init(Value()) }

    /// What the log holds, in order; setting it replaces the contents.
    package var items: Value {
        get { value }
        set { value = newValue }
    }

    package var count: Int { withLock { $0.count } }

    package var last: Value.Element? { withLock { $0.last } }

    /// Appends `element`, giving up the caller's reference: once this returns, the log
    /// holds the only one, so that another thread that takes the element out and drops it
    /// really releases it. (A caller that appended a copy and still held its own until it
    /// returned made "released on another thread" happen later, on the caller, at a
    /// moment the test did not know.)
    package func append(_ element: consuming Value.Element) {
        lock.lock()
        storage.append(element)
        lock.unlock()
    }

    /// Empties the log, returning what it held (for the caller to drop outside the lock).
    package func takeAll() -> Value {
        withLock { items in
            let taken = items
            items = Value()
            return taken
        }
    }
}
