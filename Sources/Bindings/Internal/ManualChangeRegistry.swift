/// The channels of key paths that models notify by hand (`willChangeValue(for:)` and
/// `didChangeValue(for:)`), for storage that is not `@Observed`.
///
/// A protocol cannot add storage to its conforming classes, so these live in a side
/// table keyed by object identity, holding the object weakly. Nothing tells the table
/// when an object goes: entries of objects that are gone are purged every 64 writes,
/// and their channels closed then, which ends the derived observations that still
/// listen to them (a derived key path that reads `@Observed` storage of its object
/// learns of its end at once, through that storage).
///
/// It also keeps the old values announced by `willChangeValue(for:)` of an `@Observed`
/// property until the matching `didChangeValue(for:)`.
enum ManualChangeRegistry {
    private final class Entry {
        weak var object: AnyObject?
        var channels: [AnyKeyPath: PropertyChannel<Void>] = [:]
        init(object: AnyObject) { self.object = object }
    }

    /// `@unchecked Sendable`: `entries` and `pendingOld` are only touched with `lock` held.
    private final class Table: @unchecked Sendable {
        let lock = Lock()
        var entries: [ObjectIdentifier: Entry] = [:]
        var writes = 0
        /// Old values from `willChangeValue(for:)`, a stack per key path (pairs may nest).
        var pendingOld: [PendingKey: [Any]] = [:]
    }

    private struct PendingKey: Hashable {
        let object: ObjectIdentifier
        let key: AnyKeyPath
    }

    private static let table = Table()

    /// The channel for `key` on `object`, created when needed.
    static func channel(for object: AnyObject, key: AnyKeyPath) -> PropertyChannel<Void> {
        let table = self.table
        table.lock.lock()
        let id = ObjectIdentifier(object)
        var entry = table.entries[id]
        if entry?.object == nil {
            // A new object, or a dead one whose address was reused.
            entry = Entry(object: object)
            table.entries[id] = entry
            table.writes += 1
        }
        if let channel = entry!.channels[key] {
            table.lock.unlock()
            return channel
        }
        let channel = PropertyChannel<Void>(key: key, ownerID: id, read: { () })
        entry!.channels[key] = channel
        var purged: [Entry] = []
        if table.writes % 64 == 0 {
            for (key, entry) in table.entries where entry.object == nil {
                purged.append(entry)
                table.entries[key] = nil
            }
        }
        table.lock.unlock()
        // Closed and released outside the lock: closing calls into the observers.
        for entry in purged {
            for channel in entry.channels.values { channel.close() }
        }
        return channel
    }

    /// The channel for `key` on `object`, if anybody ever observed it.
    static func existingChannel(for object: AnyObject, key: AnyKeyPath) -> PropertyChannel<Void>? {
        let table = self.table
        table.lock.lock()
        defer { table.lock.unlock() }
        guard let entry = table.entries[ObjectIdentifier(object)], entry.object === object else { return nil }
        return entry.channels[key]
    }

    /// Keeps `old`, the value of `key` on `object` before a change announced by hand.
    static func pushOld(_ old: Any, for object: AnyObject, key: AnyKeyPath) {
        let pending = PendingKey(object: ObjectIdentifier(object), key: key)
        table.lock.withLock { table.pendingOld[pending, default: []].append(old) }
    }

    /// The value kept by the matching ``pushOld(_:for:key:)``, if any.
    static func popOld(for object: AnyObject, key: AnyKeyPath) -> Any? {
        let pending = PendingKey(object: ObjectIdentifier(object), key: key)
        let table = self.table
        return table.lock.withLock { () -> Any? in
            guard var stack = table.pendingOld[pending], let old = stack.popLast() else { return nil }
            table.pendingOld[pending] = stack.isEmpty ? nil : stack
            return old
        }
    }
}
