#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the channel to observe for a key path of a model.
enum ObservationTarget {
    /// The channel for `keyPath` on `root`.
    ///
    /// A key path that is exactly one `@Observed` property of `root`, with no declared
    /// dependencies, observes that property's channel directly (the fast path). Anything
    /// else is a ``DerivedObservation``.
    static func resolve<Root: KeyValueObservable, Value>(
        _ root: Root, _ keyPath: KeyPath<Root, Value>
    ) -> PropertyChannel<Value> {
        let affecting = Array(Root.keyPathsAffectingValue(for: keyPath))
        let (value, sources) = DependencyTracking.track { root[keyPath: keyPath] }
        if affecting.isEmpty, sources.count == 1,
           let channel = sources[0] as? PropertyChannel<Value>,
           channel.ownerID == ObjectIdentifier(root), channel.key == keyPath
        {
            return channel
        }
        if sources.isEmpty, affecting.isEmpty {
            warnUntracked(keyPath)
        }
        let derived = DerivedObservation(root: root, keyPath: keyPath, affecting: affecting, sources: sources, value: value)
        return derived.channel
    }

    /// `@unchecked Sendable`: `warned` is only touched with `lock` held.
    private final class Warned: @unchecked Sendable {
        let lock = Lock()
        var keys = Set<AnyKeyPath>()
    }

    private static let warned = Warned()

    /// Says once per key path, on standard error, that nothing will be observed.
    static func warnUntracked(_ keyPath: AnyKeyPath) {
        let first = warned.lock.withLock { warned.keys.insert(keyPath).inserted }
        guard first else { return }
        let message = """
            Bindings warning: observing \(keyPath), whose getter reads no @Observed storage, so no change \
            will be seen (the initial value is still delivered). Mark the stored properties it reads \
            @Observed, declare them in keyPathsAffectingValue(for:), or notify by hand with \
            willChangeValue(for:) and didChangeValue(for:).

            """
        message.withCString { _ = write(2, $0, strlen($0)) }
    }
}
