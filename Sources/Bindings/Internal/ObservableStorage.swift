/// A value that is observable storage of its own (an ``ObservableArray``), held by a
/// model (`let tasks = ObservableArray<Task>()`): a key path whose value it is (`\.tasks`)
/// depends on it as on an `@Observed` property, although reading the `let` that holds it
/// reports nothing.
@usableFromInline
protocol ObservableStorage: AnyObject {
    /// The channel whose changes are this storage's.
    var storageSource: any DependencySource { get }
}

extension DependencyTracking {
    /// Records, in the current thread's tracking session, the storage that `value` is, if
    /// it is one: called after a derived key path's evaluation read `value`.
    @usableFromInline
    static func recordIfStorage<Value>(_ value: Value) {
        guard let storage = value as? any ObservableStorage, let session = currentSession else { return }
        let source = storage.storageSource
        record(ObjectIdentifier(source), into: session) { source }
    }

    /// Whether values of type `Value` may be observable storage, checked once per
    /// observation so that an evaluation of any other type pays nothing.
    @inlinable
    static func mayBeStorage<Value>(_: Value.Type) -> Bool {
        Value.self is any ObservableStorage.Type || Value.self == Any.self || Value.self == AnyObject.self
    }
}
