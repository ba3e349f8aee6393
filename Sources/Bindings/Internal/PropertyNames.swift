/// The names of `@Observed` properties, for messages (`Person.firstName`), by model class
/// and key path: found by reflection the first time a property of a class is observed,
/// then known for every instance.
///
/// Found for each instance, the reflection (a walk of the model's stored properties
/// through `Mirror`) was most of the cost of observing a new model: a
/// `publisher(for: \.title).sink` and `cancel()` of a model just made took 3.2 us.
enum PropertyNames {
    private struct Key: Hashable {
        let modelClass: ObjectIdentifier
        let keyPath: AnyKeyPath
    }

    /// Names found so far; `nil` where reflection found none. Grows with the program's
    /// (class, property) pairs, which are few.
    private final class Table: @unchecked Sendable {
        // `@unchecked Sendable`: `names` is only touched with `lock` held. (Not a `Mutex`:
        // `AnyKeyPath` is not `Sendable`, though a key path is immutable once made.)
        let lock = Lock()
        var names: [Key: String?] = [:]
    }
    private static let known = Table()

    /// The name of the property at `keyPath` of instances of `modelClass`: the one
    /// remembered, or else the one `find` gives, remembered. `find` runs without the
    /// lock (it reflects a model), so two threads may both run it, with the same result.
    static func name(of keyPath: AnyKeyPath, in modelClass: AnyClass, find: () -> String?) -> String? {
        let key = Key(modelClass: ObjectIdentifier(modelClass), keyPath: keyPath)
        if let remembered = known.lock.withLock({ known.names[key] }) { return remembered }
        let found = find()
        known.lock.withLock { known.names[key] = .some(found) }
        return found
    }
}
