/// The channels of key paths that models notify by hand (`willChangeValue(for:)` and
/// `didChangeValue(for:)`), for storage that is not `@Observed`, and the old values
/// those announcements keep.
///
/// A protocol cannot add storage to its conforming classes, so this state lives in a
/// side table: one ``Entry`` per object, keyed by its identity and holding it weakly.
/// An entry serves only the object it was made for: a dead object's entry is never
/// handed to a new object that took its address, but replaced.
///
/// When an object goes, its entry goes with it, and its channels are closed, which ends
/// the derived observations that still listen to them (a derived key path that reads
/// `@Observed` storage of its object learns of its end at once, through that storage):
/// - at once, when the model declares an ``ObservationAnchor``: the anchor, released
///   with the model, does it on the thread that releases the model (see
///   ``release(_:)``); the purge leaves such an entry to its anchor, so that closing
///   is done when the model's release returns;
/// - otherwise at the next purge, every 64 entries made: nothing else tells the table
///   that an object is gone.
///
/// It also keeps the old values announced by `willChangeValue(for:)` of an `@Observed`
/// property (and by `willChange(_:valuesAt:for:)`) until the matching `didChangeValue(for:)`,
/// in the object's entry, so that they go with it too.
enum ManualChangeRegistry {
    /// The hand-notification state of one object.
    ///
    /// Every `var` is only touched with `table.lock` held.
    final class Entry {
        /// The object this entry serves; `nil` once it is gone.
        weak var object: AnyObject?
        /// Its identity, the entry's key in the table.
        let id: ObjectIdentifier
        var channels: [AnyKeyPath: PropertyChannel<Void>] = [:]
        /// Old values from `willChangeValue(for:)`, a stack per key path (pairs may nest).
        var pendingOld: [AnyKeyPath: [Any]] = [:]
        /// Whether the object's ``ObservationAnchor`` will take this entry out when the
        /// object goes (the purge then leaves it alone).
        var anchored = false

        init(object: AnyObject) {
            self.object = object
            id = ObjectIdentifier(object)
        }

        /// Empties the entry, returning its channels (to close outside the lock) and its
        /// old values (to release there: releasing a value may run user code).
        func takeAll() -> (channels: [PropertyChannel<Void>], values: [AnyKeyPath: [Any]]) {
            defer {
                channels = [:]
                pendingOld = [:]
            }
            return (Array(channels.values), pendingOld)
        }
    }

    /// `@unchecked Sendable`: `entries` and `writes` (and every `Entry`'s `var`s, and each
    /// ``ObservationAnchor``'s `entries` and `misused`) are only touched with `lock` held.
    final class Table: @unchecked Sendable {
        let lock = Lock()
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Entries made so far: every 64th purges the table.
        var writes = 0
    }

    static let table = Table()

    /// The entry of `object`, made (and bound to `anchor`) if it has none or if the one
    /// at its address belongs to a dead object. Runs under the lock; adds the entries it
    /// takes out of the table to `purged`, to finish outside it (``finish(_:)``), the
    /// objects its purge found alive to `keptAlive`, to release outside it, and sets
    /// `misused` if `anchor` already served another object.
    private static func liveEntry(
        for object: AnyObject, anchor: ObservationAnchor, purged: inout [Entry], keptAlive: inout [AnyObject],
        misused: inout Bool
    ) -> Entry {
        let id = ObjectIdentifier(object)
        if let entry = table.entries[id], entry.object === object { return entry }
        // A new object, or a dead one's entry at a reused address: not inherited.
        if let dead = table.entries[id] { purged.append(dead) }
        let entry = Entry(object: object)
        table.entries[id] = entry
        if anchor.isAnchor { bind(entry, to: anchor, misused: &misused) }
        table.writes += 1
        if table.writes % 64 == 0 {
            for (key, entry) in table.entries where !entry.anchored {
                // Loading a weak reference makes a strong one, which may be the object's
                // last (another thread just dropped its own): kept in `purged`'s company
                // and released after unlocking, since a deinit here could take this lock.
                if let object = entry.object {
                    keptAlive.append(object)
                    continue
                }
                purged.append(entry)
                table.entries[key] = nil
            }
        }
        return entry
    }

    /// Makes `anchor` responsible for `entry`, if the anchor serves no other object: an
    /// anchor shared by several models, or one that outlived its model, ends nothing at
    /// the right time, so it is disowned (its entries left to the purge) and `misused`
    /// set. Runs under the lock.
    private static func bind(_ entry: Entry, to anchor: ObservationAnchor, misused: inout Bool) {
        if anchor.entries.isEmpty, !anchor.misused {
            anchor.entries = [entry]
            entry.anchored = true
            return
        }
        for other in anchor.entries { other.anchored = false }
        anchor.entries = []
        anchor.misused = true
        misused = true
    }

    /// Closes the channels of entries taken out of the table and releases their old
    /// values; called outside the lock (closing calls into the observers).
    private static func finish(_ entries: [Entry]) {
        guard !entries.isEmpty else { return }
        let taken = table.lock.withLock { entries.map { $0.takeAll() } }
        for (channels, _) in taken {
            for channel in channels { channel.close() }
        }
    }

    /// The channel for `key` on `object`, created when needed.
    static func channel<Object: KeyValueObservable>(for object: Object, key: AnyKeyPath) -> PropertyChannel<Void> {
        // Read before locking: a model's property is user code.
        let anchor = object.observationAnchor
        var purged: [Entry] = []
        var keptAlive: [AnyObject] = []
        var misused = false
        let table = self.table
        table.lock.lock()
        let entry = liveEntry(for: object, anchor: anchor, purged: &purged, keptAlive: &keptAlive, misused: &misused)
        let channel: PropertyChannel<Void>
        if let existing = entry.channels[key] {
            channel = existing
        } else {
            channel = PropertyChannel<Void>(key: key, ownerID: entry.id, read: { () })
            // A key path's observation that depends on it counts as wanting old values:
            // `willChangeValue(for:)` then reads the value before the change, its old one.
            channel.linksWantOld = true
            entry.channels[key] = channel
        }
        table.lock.unlock()
        // Released only now: a computed anchor (a mistake) is released here, and its
        // deinit takes the lock; so may the objects the purge found alive.
        withExtendedLifetime((anchor, keptAlive)) {}
        finish(purged)
        if misused { ObservationTarget.warnMisusedAnchor(of: Object.self) }
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
    static func pushOld<Object: KeyValueObservable>(_ old: Any, for object: Object, key: AnyKeyPath) {
        let anchor = object.observationAnchor
        var purged: [Entry] = []
        var keptAlive: [AnyObject] = []
        var misused = false
        table.lock.withLock {
            liveEntry(for: object, anchor: anchor, purged: &purged, keptAlive: &keptAlive, misused: &misused)
                .pendingOld[key, default: []].append(old)
        }
        withExtendedLifetime((anchor, keptAlive)) {}   // released outside the lock (see above)
        finish(purged)
        if misused { ObservationTarget.warnMisusedAnchor(of: Object.self) }
    }

    /// The value kept by the matching ``pushOld(_:for:key:)``, if any.
    static func popOld(for object: AnyObject, key: AnyKeyPath) -> Any? {
        let table = self.table
        return table.lock.withLock { () -> Any? in
            guard let entry = table.entries[ObjectIdentifier(object)], entry.object === object,
                  var stack = entry.pendingOld[key], let old = stack.popLast()
            else { return nil }
            entry.pendingOld[key] = stack.isEmpty ? nil : stack
            return old
        }
    }

    /// Called by the deinit of `anchor` (on any thread): takes the entry of the object it
    /// anchored out of the table (the anchor is released with its model, which is gone),
    /// then closes its channels and drops its old values.
    ///
    /// If that object still lives, the anchor was not stored in it (a computed
    /// `observationAnchor` that makes a new one at each call): the entry is left to the
    /// purge, with a warning.
    static func release(_ anchor: ObservationAnchor) {
        let table = self.table
        var keptAlive: [AnyObject] = []
        let (dead, misused): ([Entry], Bool) = table.lock.withLock {
            let entries = anchor.entries
            anchor.entries = []
            var dead: [Entry] = []
            var misused = false
            for entry in entries {
                entry.anchored = false
                // A strong reference from a weak one may be the last: released outside.
                if let alive = entry.object {
                    keptAlive.append(alive)
                    misused = true
                    continue
                }
                if table.entries[entry.id] === entry { table.entries[entry.id] = nil }
                dead.append(entry)
            }
            return (dead, misused)
        }
        withExtendedLifetime(keptAlive) {}
        finish(dead)
        if misused { ObservationTarget.warnMisusedAnchor(of: nil) }
    }

    // MARK: For tests

    /// The old values kept for the object whose identity is `id`, live or dead: what
    /// unmatched `willChangeValue(for:)` calls left behind.
    static func pendingOldCount(forObjectWithID id: ObjectIdentifier) -> Int {
        table.lock.withLock { table.entries[id]?.pendingOld.values.reduce(0) { $0 + $1.count } ?? 0 }
    }

    /// Whether the table holds an entry at `id`, live or dead.
    static func hasEntry(forObjectWithID id: ObjectIdentifier) -> Bool {
        table.lock.withLock { table.entries[id] != nil }
    }
}
