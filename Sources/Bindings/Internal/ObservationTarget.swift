#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the channel to observe for a key path of a model.
@usableFromInline
enum ObservationTarget {
    /// The channel for the key path of `specialization` on `root`.
    ///
    /// A key path that is exactly one `@Observed` property of `root`, with no declared
    /// dependencies, observes that property's channel directly (the fast path). Anything
    /// else is a ``DerivedObservation``, shared by every observer of that key path on
    /// that object, so that they all see the same evaluations in the same order;
    /// `specialization` does its work at each change (the first observer's).
    ///
    /// Also returns the value the look-up read, as a snapshot for the observer's initial
    /// value.
    ///
    /// Inlinable, so that the look-up runs where the types are known: run as generic
    /// code, its generic metadata look-ups cost more than the rest (~600 ns a look-up).
    @inlinable
    static func resolve<Root: KeyValueObservable, Value>(
        _ root: Root, specialization: DerivedSpecialization<Root, Value>
    ) -> (channel: PropertyChannel<Value>, snapshot: PropertyChannel<Value>.Snapshot?) {
        // Read through the specialization: the key path folded into property accesses,
        // not applied at run time (~100 ns for a wrapped property).
        var value: Value?
        let sources = DependencyTracking.track(expecting: []) {
            value = specialization.read(root)
            if DependencyTracking.mayBeStorage(Value.self) { DependencyTracking.recordIfStorage(value!) }
        } ?? []
        let keyPath = specialization.keyPath
        // One source, of exactly this channel type (a final class: comparing the dynamic
        // type is the whole check, and cheaper than a dynamic cast).
        if sources.count == 1, ObjectIdentifier(type(of: sources[0])) == ObjectIdentifier(PropertyChannel<Value>.self) {
            let channel = unsafeDowncast(sources[0], to: PropertyChannel<Value>.self)
            if channel.ownerID == ObjectIdentifier(root),
               Root.keyPathsAffectingValue(for: keyPath).isEmpty,
               channel.stands(for: keyPath, owner: root)
            {
                return (channel, PropertyChannel.Snapshot(value: value!, version: channel.version))
            }
        }
        // The value just read is current for a derived channel too: its observer is made
        // before anything can change on this isolation.
        let channel = resolveDerived(root, keyPath, value: value!, sources: sources, specialization: specialization)
        return (channel, PropertyChannel.Snapshot(value: value!, version: channel.version))
    }

    /// The rest of ``resolve(_:specialization:)``: the channel of the shared derived
    /// observation of `keyPath` on `root`, made if there is none; `value` and `sources`
    /// are what the look-up's evaluation gave.
    @usableFromInline
    static func resolveDerived<Root: KeyValueObservable, Value>(
        _ root: Root, _ keyPath: KeyPath<Root, Value>, value: Value, sources: [any DependencySource],
        specialization: DerivedSpecialization<Root, Value>?
    ) -> PropertyChannel<Value> {
        let affecting = affectingKeyPaths(of: keyPath, in: Root.self)
        let key = Key(object: ObjectIdentifier(root), keyPath: keyPath)
        if let channel: PropertyChannel<Value> = existing(key, root: root) { return channel }
        // Reads no `@Observed` storage and declares no dependency: only a hand notification
        // can bring a change. Whether one comes is known only at the end (see
        // `DerivedObservation.untracked`): a warning now would be false for a key path
        // that its model notifies by hand later.
        let untracked = sources.isEmpty && affecting.isEmpty
        if sources.isEmpty, !affecting.isEmpty {
            let anchored = root.observationAnchor.isAnchor
            if !anchored,
                      DependencyTracking.track({ for key in affecting { _ = root[keyPath: key] } }).1.isEmpty
            {
                warnUnanchored(keyPath, Root.self)
            }
        }
        let (channel, derived) = DerivedObservation.makeChannel(
            root: root, keyPath: keyPath, affecting: affecting, sources: sources, value: value,
            specialization: specialization, untracked: untracked)
        let replaced: Entry? = shared.lock.withLock {
            let replaced = shared.entries[key]
            shared.entries[key] = Entry(derived)
            shared.keys[ObjectIdentifier(derived)] = key
            return replaced
        }
        withExtendedLifetime(replaced) {}   // released outside the lock
        return channel
    }

    /// The key paths that affect `keyPath`, followed transitively as Foundation's KVO
    /// does: those `Root` declares for it, those it declares for each of them, and so on.
    /// Each once, in the order found, without `keyPath` itself: a cycle ends there.
    static func affectingKeyPaths<Root: KeyValueObservable>(of keyPath: AnyKeyPath, in _: Root.Type) -> [AnyKeyPath] {
        let declared = Root.keyPathsAffectingValue(for: keyPath)
        guard !declared.isEmpty else { return [] }   // the common case: nothing to follow
        var found: [AnyKeyPath] = []
        var seen: Set<AnyKeyPath> = [keyPath]
        for key in declared where seen.insert(key).inserted { found.append(key) }
        var index = 0
        while index < found.count {
            for key in Root.keyPathsAffectingValue(for: found[index]) where seen.insert(key).inserted {
                found.append(key)
            }
            index += 1
        }
        return found
    }

    // MARK: Shared derived observations

    private struct Key: Hashable {
        let object: ObjectIdentifier
        let keyPath: AnyKeyPath
    }

    /// A registered derived observation, held weakly: its channel owns it.
    private final class Entry {
        weak var derived: AnyObject?
        init(_ derived: AnyObject) { self.derived = derived }
    }

    /// `@unchecked Sendable`: `entries` and `keys` (and each `Entry`, made and read there)
    /// are only touched with `lock` held.
    private final class Shared: @unchecked Sendable {
        let lock = Lock()
        var entries: [Key: Entry] = [:]
        /// The key of each registered observation, so that its deinit finds its entry.
        var keys: [ObjectIdentifier: Key] = [:]
    }

    private static let shared = Shared()

    /// The channel of the live derived observation of `key`, if there is one for `root`.
    private static func existing<Root: KeyValueObservable, Value>(_ key: Key, root: Root) -> PropertyChannel<Value>? {
        // The strong reference loaded under the lock may be the last one (another thread
        // may be dropping its own): it is returned, so that it is released after unlocking.
        let object: AnyObject? = shared.lock.withLock { shared.entries[key]?.derived }
        guard let derived = object as? DerivedObservation<Root, Value> else { return nil }
        return derived.channel(serving: root)
    }

    /// Called by a derived observation's deinit (with its identifier): drops its entry,
    /// unless another observation has taken the key since.
    static func forget(_ derived: ObjectIdentifier) {
        var alive: AnyObject?
        let dropped: Entry? = shared.lock.withLock {
            guard let key = shared.keys.removeValue(forKey: derived), let entry = shared.entries[key] else { return nil }
            // Another observation has the key: loading its weak reference makes a strong
            // one, which may be its last (another thread dropping its own), so it is
            // released after unlocking (its deinit takes this lock).
            alive = entry.derived
            guard alive == nil else { return nil }   // ours: it is dying
            shared.entries[key] = nil
            return entry
        }
        withExtendedLifetime((dropped, alive)) {}
    }

    /// The number of registered derived observations, for tests.
    static var sharedCount: Int { shared.lock.withLock { shared.entries.count } }

    // MARK: Warning

    /// `@unchecked Sendable`: `keys` and `sink` are only touched with `lock` held.
    private final class Warned: @unchecked Sendable {
        let lock = Lock()
        var keys = Set<AnyKeyPath>()
        var sink: (@Sendable (String) -> Void)?
    }

    private static let warned = Warned()

    /// Says once per key path, on standard error, that an observation that has ended saw
    /// no change, and could see none but by hand; for a model without an anchor
    /// (`suggestAnchorFor`), also how to end its observations with it.
    static func warnUntracked(_ keyPath: AnyKeyPath, of model: Any.Type, suggestAnchor: Bool) {
        let anchor = suggestAnchor
            ? " If you notify it by hand, also declare `let observationAnchor = ObservationAnchor()` in \(model), "
                + "so that its observations end when it deinitialises."
            : ""
        warn(once: keyPath, """
            Bindings warning: observed \(describe(keyPath, of: model)) and saw no change: its getter \
            reads no @Observed storage, and it was never notified by hand (the initial value was \
            delivered). Mark the stored properties it reads @Observed, declare them in \
            keyPathsAffectingValue(for:), or notify by hand with willChangeValue(for:) and \
            didChangeValue(for:).\(anchor)

            """)
    }

    /// The key path as Swift prints it, and, for a computed property (which prints with
    /// no name on Linux: `\Model.<computed 0x… (Int)>`), what it is in words.
    static func describe(_ keyPath: AnyKeyPath, of model: Any.Type) -> String {
        let printed = "\(keyPath)"
        guard printed.contains("<computed"),
              let open = printed.lastIndex(of: "("), let close = printed.lastIndex(of: ")"), open < close
        else { return printed }
        let valueType = printed[printed.index(after: open)..<close]
        return "\(printed) (a computed property of \(model), of type \(valueType))"
    }

    /// Says once per key path, on standard error, that the observations of a key path
    /// notified by hand only, of a model without an anchor, outlive the model.
    static func warnUnanchored(_ keyPath: AnyKeyPath, _ model: Any.Type) {
        warn(once: keyPath, """
            Bindings warning: observing \(describe(keyPath, of: model)), which reads no @Observed storage (it is notified by \
            hand), on \(model), which has no observation anchor: its observations will end only at a \
            later clean-up after the model deinitialises, not at once. Declare \
            `let observationAnchor = ObservationAnchor()` in \(model) to end them with it.

            """)
    }

    /// Says once, on standard error, that an anchor serves several models or was not
    /// stored in its model (`model`: its type, when known).
    static func warnMisusedAnchor(of model: Any.Type?) {
        let name = model.map { "\($0)" } ?? "a model"
        // Keyed by a key path that nobody observes: once per process.
        warn(once: \ObservationAnchor.isAnchor, """
            Bindings warning: the observationAnchor of \(name) serves several models, outlived its \
            model, or was not stored in it, so it ends nothing early. Give each model its own, in a \
            stored property: `let observationAnchor = ObservationAnchor()`.

            """)
    }

    /// Writes `message` on standard error, the first time only for `key` (or hands it to
    /// ``warningSink``).
    private static func warn(once key: AnyKeyPath, _ message: String) {
        let (first, sink) = warned.lock.withLock { (warned.keys.insert(key).inserted, warned.sink) }
        guard first else { return }
        if let sink {
            sink(message)
        } else {
            message.withCString { _ = write(2, $0, strlen($0)) }
        }
    }

    /// Where the warnings go instead of standard error, when set: the test suites set it,
    /// so that the warnings their own misuse causes do not fill a passing run's output.
    static var warningSink: (@Sendable (String) -> Void)? {
        get { warned.lock.withLock { warned.sink } }
        set { warned.lock.withLock { warned.sink = newValue } }
    }
}
