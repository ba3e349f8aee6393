/// Marks a stored property of a ``KeyValueObservable`` class as observable.
///
/// Reading and writing the property needs no `$` and costs about what a plain stored
/// property costs: with nobody observing, a set takes no lock and allocates nothing, and
/// in-place mutation (`person.tags.append("x")`) does not copy the collection. Every set
/// notifies the property's observers, equal values included.
///
/// ```swift
/// final class Person: KeyValueObservable {
///     @Observed var firstName = "Ada"
/// }
/// let person = Person()
/// let c = person.$firstName.sink { print($0) }   // "Ada"
/// person.firstName = "Grace"                     // "Grace"
/// ```
///
/// The value itself is ordinary stored state, as with `@Published`: keep the model on one
/// isolation domain (an actor, the main actor, or one thread). Observing and cancelling
/// are thread-safe.
@propertyWrapper
public struct Observed<Value> {
    /// The stored value.
    @usableFromInline var value: Value
    /// The property's channel, created the first time the property is observed; `nil`
    /// keeps unobserved sets free. Unmanaged so that a set does not retain it: `anchor`
    /// owns it, and lives exactly as long as this storage, so the channel is alive
    /// whenever the model is being set.
    @usableFromInline var channel: Unmanaged<PropertyChannel<Value>>?
    /// Owns the channel; released with the model, it closes the channel, which is how
    /// observers learn that the model is gone.
    @usableFromInline var anchor: ChannelAnchor?

    /// Creates the storage with an initial value.
    @inlinable
    public init(wrappedValue: Value) {
        value = wrappedValue
        channel = nil
        anchor = nil
    }

    /// `@Observed` works on properties of classes that conform to `KeyValueObservable`.
    @available(*, unavailable, message: "@Observed can only be applied to properties of classes that conform to KeyValueObservable")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    // These accessors are `@inlinable` and always inlined on purpose: inlined into the
    // client, the key paths fold into direct field accesses; through a call (even a
    // specialized one) every access goes through the key path machinery, ~500 ns here.

    /// The property's value, read and written through the enclosing instance.
    @inlinable
    public static subscript<Instance: KeyValueObservable>(
        _enclosingInstance instance: Instance,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Instance, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Instance, Observed<Value>>
    ) -> Value {
        @inline(__always) get {
            if DependencyTracking.isActive {
                recordRead(instance, wrapped: wrappedKeyPath, storage: storageKeyPath)
            }
            return instance[keyPath: storageKeyPath].value
        }
        @inline(__always) set {
            guard let channel = instance[keyPath: storageKeyPath].channel else {
                instance[keyPath: storageKeyPath].value = newValue
                return
            }
            channel._withUnsafeGuaranteedRef { channel in
                if channel.wantsOld {
                    let old = instance[keyPath: storageKeyPath].value
                    if channel.wantsPrior { channel.sendPrior(old: old) }
                    instance[keyPath: storageKeyPath].value = newValue
                    channel.sendChange(old: old, new: newValue)
                } else {
                    instance[keyPath: storageKeyPath].value = newValue
                    channel.sendChange(old: nil, new: newValue)
                }
            }
        }
        @inline(__always) _modify {
            guard let channel = instance[keyPath: storageKeyPath].channel else {
                yield &instance[keyPath: storageKeyPath].value
                return
            }
            let observed = channel.takeUnretainedValue()
            if observed.wantsOld {
                // Someone asked for old values: keeping one means a copy, as with KVO.
                let old = instance[keyPath: storageKeyPath].value
                if observed.wantsPrior { observed.sendPrior(old: old) }
                yield &instance[keyPath: storageKeyPath].value
                observed.sendChange(old: old, new: instance[keyPath: storageKeyPath].value)
            } else {
                yield &instance[keyPath: storageKeyPath].value
                observed.sendChange(old: nil, new: instance[keyPath: storageKeyPath].value)
            }
        }
    }

    /// The projection, `$property`: a publisher of the current value, then each new one.
    @inlinable
    public static subscript<Instance: KeyValueObservable>(
        _enclosingInstance instance: Instance,
        projected projectedKeyPath: KeyPath<Instance, Publisher>,
        storage storageKeyPath: ReferenceWritableKeyPath<Instance, Observed<Value>>
    ) -> Publisher {
        Publisher(channel: channel(of: instance, wrapped: nil, storage: storageKeyPath))
    }

    /// Not for direct use: `$property` is read through the enclosing instance.
    @available(*, unavailable, message: "$property is only available on properties of classes that conform to KeyValueObservable")
    public var projectedValue: Publisher {
        fatalError("unavailable")
    }

    /// Reports a read to the thread that is tracking dependencies.
    @usableFromInline
    static func recordRead<Instance: KeyValueObservable>(
        _ instance: Instance,
        wrapped: ReferenceWritableKeyPath<Instance, Value>,
        storage: ReferenceWritableKeyPath<Instance, Observed<Value>>
    ) {
        // `isActive` says that some thread is tracking; only a read on that thread counts
        // (and only then is the channel worth creating).
        guard DependencyTracking.isTrackingOnCurrentThread else { return }
        DependencyTracking.record(channel(of: instance, wrapped: wrapped, storage: storage))
    }

    /// The property's channel, created on first use (on the model's isolation, as every
    /// access to the model's storage is). Inlinable so that the `read` closure, run at
    /// every subscription with `.initial`, is specialized and reads the field directly.
    @inlinable
    static func channel<Instance: KeyValueObservable>(
        of instance: Instance,
        wrapped: ReferenceWritableKeyPath<Instance, Value>?,
        storage: ReferenceWritableKeyPath<Instance, Observed<Value>>
    ) -> PropertyChannel<Value> {
        if let channel = instance[keyPath: storage].channel?.takeUnretainedValue() {
            if let wrapped, channel.key != wrapped {
                // Made by `$property`, which only knows the storage: now the property is known.
                channel.key = wrapped
            }
            return channel
        }
        // The channel reads the value weakly: it must never keep the model alive.
        let channel = PropertyChannel<Value>(
            key: wrapped ?? Self.wrappedKeyPath(storage),
            ownerID: ObjectIdentifier(instance),
            read: { [weak instance] in instance?[keyPath: storage].value }
        )
        instance[keyPath: storage].anchor = ChannelAnchor(channel)
        instance[keyPath: storage].channel = Unmanaged.passUnretained(channel)
        return channel
    }

    /// `$property` only knows the storage key path; the channel stands for the property
    /// once a tracked read names it. Until then it is keyed by the storage itself.
    @usableFromInline
    static func wrappedKeyPath<Instance>(_ storage: ReferenceWritableKeyPath<Instance, Observed<Value>>) -> AnyKeyPath {
        storage
    }
}

/// Owns an `@Observed` property's channel and closes it when the property's storage is
/// destroyed with its model.
@usableFromInline
final class ChannelAnchor {
    private let channel: any ClosableChannel

    @usableFromInline
    init(_ channel: any ClosableChannel) { self.channel = channel }

    deinit { channel.close() }
}

/// A channel that can be closed when its source is gone.
@usableFromInline
protocol ClosableChannel: AnyObject {
    func close()
}

extension PropertyChannel: ClosableChannel {}
