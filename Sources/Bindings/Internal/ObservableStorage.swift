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
    /// it is one: called after a derived key path's evaluation read `value`. Inlinable:
    /// where `Value` is known, the cast is decided when the code is compiled (run as
    /// generic code, it was a run-time conformance look-up at each change).
    @inlinable
    static func recordIfStorage<Value>(_ value: Value) {
        guard let storage = value as? any ObservableStorage else { return }
        recordStorage(storage.storageSource)
    }

    /// Records, in the current thread's tracking session, `source`: the storage a derived
    /// key path's evaluation read as its value (see ``StorageReader``).
    @inlinable
    static func recordStorage(_ source: any DependencySource) {
        guard let session = currentSession else { return }
        record(ObjectIdentifier(source), into: session) { source }
    }

    /// Whether values of type `Value` may be observable storage. Only a class can be (or
    /// `Any`, `AnyObject`): where `Value` is known, a value type is ruled out when the
    /// code is compiled, and only a class pays the run-time conformance look-up (made for
    /// every type, it took a computed key path's subscribe + cancel from 0.75 to
    /// 0.95 µs, measured).
    @inlinable @inline(__always)
    static func mayBeStorage<Value>(_: Value.Type) -> Bool {
        if Value.self == Any.self || Value.self == AnyObject.self { return true }
        guard Value.self is AnyObject.Type else { return false }
        return Value.self is any ObservableStorage.Type
    }
}

/// Finds the observable storage that a value of one type is, for a derived observation
/// whose value may be storage (``DependencyTracking/mayBeStorage(_:)``), at each change.
///
/// `value as? any ObservableStorage` is a run-time conformance look-up at each use, even
/// where `Value` is known: the conformance (`ObservableArray`'s) is internal, so the
/// compiler of the code that observes cannot decide the cast. When `Value` itself
/// conforms, every value is storage: the reader is made once, from `Value`'s metatype
/// opened as the conforming type, and reads the storage with no look-up. Otherwise
/// (`Any`, `AnyObject`, a class that does not conform) it casts each value.
struct StorageReader<Value> {
    /// The storage's identity, or `nil` if the value is no storage.
    let identity: (Value) -> ObjectIdentifier?
    /// The storage's source, or `nil` if the value is no storage.
    let source: (Value) -> (any DependencySource)?

    init() {
        guard let storageType = Value.self as? any ObservableStorage.Type else {
            identity = { value in (value as? any ObservableStorage).map { ObjectIdentifier($0) } }
            source = { value in (value as? any ObservableStorage)?.storageSource }
            return
        }
        self = Self.reading(storageType)
    }

    /// The reader for `Value`, which is `Storage`: the metatype opened is `Value.self`, so
    /// a value is a reference to a `Storage`, taken as it is (unretained: the caller holds
    /// the value). These closures run as generic code, where a cast or a call of a generic
    /// function would look metadata up: a bit cast and `Unmanaged` do not.
    private static func reading<Storage: ObservableStorage>(_: Storage.Type) -> StorageReader {
        func storage(_ value: Value) -> Unmanaged<Storage> {
            Unmanaged.fromOpaque(unsafeBitCast(value, to: UnsafeRawPointer.self))
        }
        return StorageReader(
            identity: { value in storage(value)._withUnsafeGuaranteedRef { ObjectIdentifier($0) } },
            source: { value in storage(value)._withUnsafeGuaranteedRef { $0.storageSource } })
    }

    private init(identity: @escaping (Value) -> ObjectIdentifier?, source: @escaping (Value) -> (any DependencySource)?) {
        self.identity = identity
        self.source = source
    }
}
