/// The channels of key paths that models notify by hand (`willChangeValue(for:)` and
/// `didChangeValue(for:)`), for storage that is not `@Observed`.
///
/// A protocol cannot add storage to its conforming classes, so these live in a side
/// table keyed by object identity, holding the object weakly; entries of objects that
/// are gone are purged whenever the table is written.
enum ManualChangeRegistry {
    private final class Entry {
        weak var object: AnyObject?
        var channels: [AnyKeyPath: PropertyChannel<Void>] = [:]
        init(object: AnyObject) { self.object = object }
    }

    /// `@unchecked Sendable`: `entries` is only touched with `lock` held.
    private final class Table: @unchecked Sendable {
        let lock = Lock()
        var entries: [ObjectIdentifier: Entry] = [:]
        var writes = 0
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
        withExtendedLifetime(purged) {}   // released outside the lock
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
}
