import Synchronization

/// A token for an observation made with ``KeyValueObservable/observe(_:options:changeHandler:)``,
/// as Foundation's `NSKeyValueObservation`: the observation lasts until ``invalidate()``
/// or until the token is released.
///
/// It holds neither the model nor, once the model is gone, the change handler; using it
/// after that is harmless. It is `Sendable`: invalidate from any thread.
public final class KeyValueObservation: Sendable {
    /// Weak: the observer lives in its channel, which dies with the model.
    private let observer: WeakObserverReference

    init(_ observer: any UnregisteringObserver) {
        self.observer = WeakObserverReference(observer)
    }

    /// Ends the observation: no notification starts after this returns. Idempotent.
    public func invalidate() {
        observer.object?.unregister()
    }

    deinit { invalidate() }
}

/// An observer that can be told to stop, from any thread.
protocol UnregisteringObserver: AnyObject {
    func unregister()
}

/// A weak reference to an observer.
final class WeakObserverReference: @unchecked Sendable {
    // `@unchecked Sendable`: the reference is never assigned after init, the runtime
    // loads weak references atomically, and `unregister()` is thread-safe.
    weak var object: (any UnregisteringObserver)?
    init(_ object: any UnregisteringObserver) { self.object = object }
}

/// The observer behind a ``KeyValueObservation``: calls the change handler with the
/// object and a ``KeyValueObservedChange`` built as the options say.
///
/// Split in two so that a notification runs specialized code: this class, generic over
/// the value only, is what `PropertyChannel.call` (inlined into the setter, where `Value`
/// is concrete) recognises by a flag bit; it builds the change there and passes it to
/// `deliver`, which only hands it to the handler with the object.
@usableFromInline
class ChangeObserver<Value>: PropertyObserver<Value>, @unchecked Sendable {
    // `@unchecked Sendable`: `deliver` is immutable and only called by the channel's
    // delivering thread, one change at a time. The base class documents the rest.

    /// Hands a change to the handler, with the observed object if it is still there.
    /// (The token holds this observer weakly, so the handler goes with the model.)
    @usableFromInline let deliver: (borrowing KeyValueObservedChange<Value>) -> Void

    init(channel: PropertyChannel<Value>, options: KeyValueObservingOptions,
         deliver: @escaping (borrowing KeyValueObservedChange<Value>) -> Void) {
        self.deliver = deliver
        super.init(channel: channel, options: options, flags: ChangeObserverFlag.bit)
    }

    /// The change that `event` makes for these options, or `nil` for a prior notice
    /// that was not asked for.
    @inlinable @inline(__always)
    static func change(for event: PropertyEvent<Value>, options: KeyValueObservingOptions) -> KeyValueObservedChange<Value>? {
        if event.isPrior {
            guard options.contains(.prior) else { return nil }
            return KeyValueObservedChange(
                kind: .setting, newValue: nil, oldValue: options.contains(.old) ? event.old : nil, isPrior: true)
        }
        return KeyValueObservedChange(
            kind: .setting, newValue: options.contains(.new) ? event.new : nil,
            oldValue: options.contains(.old) ? event.old : nil, isPrior: false)
    }

    /// The unspecialized path (queued events, initial values through generic code).
    override func receive(_ event: PropertyEvent<Value>) {
        if let change = Self.change(for: event, options: options) { deliver(change) }
    }
}

/// The bit of ``ChannelObserver/optionBits`` that marks a ``ChangeObserver``.
@usableFromInline
enum ChangeObserverFlag {
    @inlinable static var bit: UInt8 { 0x40 }
}

/// A ``ChangeObserver`` for a root type: holds the object weakly and the handler.
final class ChangeHandlerObserver<Root: KeyValueObservable, Value>: ChangeObserver<Value>, @unchecked Sendable {
    // `@unchecked Sendable`: see the base class; the closure it stores captures only
    // immutable state (a weak reference is loaded atomically).

    init(
        root: Root, channel: PropertyChannel<Value>, options: KeyValueObservingOptions,
        handler: @escaping (Root, KeyValueObservedChange<Value>) -> Void
    ) {
        let reference = WeakReference(root)
        super.init(channel: channel, options: options) { change in
            guard let root = reference.object else { return }
            handler(root, copy change)
        }
    }
}

extension KeyValueObservable {
    /// Observes the value at `keyPath`, as Foundation's `observe(_:options:changeHandler:)`.
    ///
    /// ```swift
    /// let token = person.observe(\.fullName, options: [.old, .new]) { person, change in
    ///     print(change.oldValue!, "->", change.newValue!)
    /// }
    /// ```
    /// With `.initial` the handler runs once before this returns. Every set notifies,
    /// equal values included. The handler runs on the thread that made the change.
    /// Keep the returned token: the observation ends when it is released.
    @inlinable
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>,
        options: KeyValueObservingOptions = [],
        changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
    ) -> KeyValueObservation {
        // Inlined so that a derived key path's changes run code specialized for its types.
        // The key path goes only into the specialization (see `DerivedSpecialization`).
        observe(DerivedSpecialization(keyPath), options: options, changeHandler: changeHandler)
    }

    @usableFromInline
    func observe<Value>(
        _ specialization: DerivedSpecialization<Self, Value>, options: KeyValueObservingOptions,
        changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
    ) -> KeyValueObservation {
        let channel = ObservationTarget.resolve(self, specialization: specialization)
        let observer = ChangeHandlerObserver(
            root: self, channel: channel, options: options, handler: changeHandler)
        let token = KeyValueObservation(observer)
        observer.register()
        return token
    }

    /// A publisher of the values at `keyPath`, as Combine's `publisher(for:options:)`.
    ///
    /// ```swift
    /// let c = person.publisher(for: \.address.city).sink { print($0) }
    /// ```
    @inlinable
    public func publisher<Value>(
        for keyPath: KeyPath<Self, Value>,
        options: KeyValueObservingOptions = [.initial, .new]
    ) -> KeyValueObservingPublisher<Self, Value> {
        KeyValueObservingPublisher(object: self, keyPath: keyPath, options: options)
    }

    /// Announces a change to the value at `keyPath` that `@Observed` cannot see (storage
    /// that is not `@Observed`); pair it with ``didChangeValue(for:)``.
    ///
    /// ```swift
    /// var celsius: Double {
    ///     get { storage }
    ///     set { willChangeValue(for: \.celsius); storage = newValue; didChangeValue(for: \.celsius) }
    /// }
    /// ```
    public func willChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
        if let channel = directChannel(keyPath) {
            guard channel.wantsOld else { return }
            let old = self[keyPath: keyPath]
            // Kept for the matching didChangeValue(for:), whose observers asked for it.
            ManualChangeRegistry.pushOld(old, for: self, key: keyPath)
            if channel.wantsPrior { channel.sendPrior(old: old) }
        } else if let channel = ManualChangeRegistry.existingChannel(for: self, key: keyPath) {
            channel.sendPrior(old: ())
        }
    }

    /// Announces that the value at `keyPath` has changed; observers receive the current
    /// value as the new one, and the value at ``willChangeValue(for:)`` as the old one.
    public func didChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
        if let channel = directChannel(keyPath) {
            let old = ManualChangeRegistry.popOld(for: self, key: keyPath) as? Value
            channel.sendChange(old: old, new: self[keyPath: keyPath])
        } else if let channel = ManualChangeRegistry.existingChannel(for: self, key: keyPath) {
            channel.sendChange(old: nil, new: ())
        }
    }

    /// The channel of `keyPath` if it is exactly one `@Observed` property of `self`.
    private func directChannel<Value>(_ keyPath: KeyPath<Self, Value>) -> PropertyChannel<Value>? {
        let (_, sources) = DependencyTracking.track { self[keyPath: keyPath] }
        guard sources.count == 1, let channel = sources[0] as? PropertyChannel<Value>,
              channel.ownerID == ObjectIdentifier(self), channel.key == keyPath
        else { return nil }
        return channel
    }
}
