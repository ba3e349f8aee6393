import Synchronization

/// A token for an observation made with ``KeyValueObservable/observe(_:options:isolation:changeHandler:)``,
/// as Foundation's `NSKeyValueObservation`: the observation lasts until ``invalidate()``
/// or until the token is released.
///
/// It holds neither the model nor, once the model is gone, the change handler; using it
/// after that is harmless. It is `Sendable`: invalidate from any thread.
public final class KeyValueObservation: Sendable {
    /// Weak: the observer lives in its channel, which dies with the model.
    private let observer: WeakObserverReference
    /// For a handler made on the main actor, its delivery to the main thread (see
    /// `observe`), which `invalidate()` stops too. Weak, as the observer: the observer's
    /// handler holds it.
    private weak let delivery: (any StoppableDelivery)?

    @usableFromInline
    init(_ observer: any UnregisteringObserver, delivery: (any StoppableDelivery)? = nil) {
        self.observer = WeakObserverReference(observer)
        self.delivery = delivery
    }

    /// Ends the observation: no notification starts after this returns. Idempotent.
    public func invalidate() {
        delivery?.cancel()
        observer.object?.unregister()
    }

    deinit { invalidate() }
}

/// An observer that can be told to stop, from any thread.
@usableFromInline
protocol UnregisteringObserver: AnyObject, Sendable {
    func unregister()
}

/// A weak reference to an observer. `Sendable`, checked: a `weak let` of a `Sendable`
/// type (weak references are loaded atomically by the runtime).
final class WeakObserverReference: Sendable {
    weak let object: (any UnregisteringObserver)?
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
    // `@unchecked Sendable`: `deliver` is a `let`, called by one thread at a time (the
    // channel's deliverer; for the initial value, the registering thread before the
    // observer joins). The base classes document the rest.

    /// Hands a change to the handler, with the observed object if it is still there.
    /// (The token holds this observer weakly, so the handler goes with the model.)
    @usableFromInline let deliver: (borrowing KeyValueObservedChange<Value>) -> Void
    /// The same, for a change delivered while its caller holds the observed object (see
    /// `PropertyChannel.call`): the object is passed with no weak load.
    @usableFromInline let deliverWhileHeld: (borrowing KeyValueObservedChange<Value>) -> Void

    @usableFromInline
    init(channel: PropertyChannel<Value>, options: KeyValueObservingOptions,
         deliver: @escaping (borrowing KeyValueObservedChange<Value>) -> Void,
         deliverWhileHeld: @escaping (borrowing KeyValueObservedChange<Value>) -> Void) {
        self.deliver = deliver
        self.deliverWhileHeld = deliverWhileHeld
        super.init(channel: channel, options: options, flags: ChangeObserverFlag.bit)
    }

    /// The change that `event` makes for these options, or `nil` for a prior notice
    /// that was not asked for.
    @inlinable @inline(__always)
    static func change(for event: PropertyEvent<Value>, options: KeyValueObservingOptions) -> KeyValueObservedChange<Value>? {
        if let indexed = event.indexed {
            if event.isPrior, !options.contains(.prior) { return nil }
            return KeyValueObservedChange(
                kind: indexed.kind,
                newValue: options.contains(.new) && !event.isPrior ? indexed.newElements as? Value : nil,
                oldValue: options.contains(.old) ? indexed.oldElements as? Value : nil,
                indexes: indexed.indexes, isPrior: event.isPrior)
        }
        if event.isPrior {
            guard options.contains(.prior) else { return nil }
            return KeyValueObservedChange(
                setting: nil, oldValue: options.contains(.old) ? event.old : nil, isPrior: true)
        }
        return KeyValueObservedChange(
            setting: options.contains(.new) ? event.new : nil,
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
///
/// Its initializer is not inlinable: its closures compiled where `observe` is called
/// made each change about 2 ns slower (14.7 -> 17.0 ns, A/B), for no gain.
@usableFromInline
final class ChangeHandlerObserver<Root: KeyValueObservable, Value>: ChangeObserver<Value>, @unchecked Sendable {
    // `@unchecked Sendable` (restated, as a subclass must): no stored property of its
    // own; the closures it gives the base class capture only `handler`, a
    // `WeakReference` (a `weak let`, loaded atomically by the runtime), and the root
    // `unowned(unsafe)`, used only while a caller holds it (see `PropertyChannel.call`).

    @usableFromInline
    init(
        root: Root, channel: PropertyChannel<Value>, options: KeyValueObservingOptions,
        handler: @escaping (Root, KeyValueObservedChange<Value>) -> Void
    ) {
        let reference = WeakReference(root)
        super.init(
            channel: channel, options: options,
            deliver: { change in
                guard let root = reference.object else { return }
                handler(root, copy change)
            },
            deliverWhileHeld: { [root = Unmanaged.passUnretained(root)] change in
                // Held by the caller (see `PropertyChannel.call`): passed with no retain,
                // which costs twice as much as usual for a model with weak references.
                root._withUnsafeGuaranteedRef { handler($0, copy change) }
            })
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
    /// equal values included. The handler runs on the thread that made the change;
    /// made in main-actor code (`isolation`, filled in for you), it runs on the main
    /// queue only: at once when the change is made there, otherwise through the main
    /// queue, in order; made on another actor, it runs on that actor, asynchronously, in
    /// order (`.initial` too runs before this returns).
    /// Keep the returned token: the observation ends when it is released.
    @inlinable
    public func observe<Value>(
        _ keyPath: consuming KeyPath<Self, Value>,
        options: KeyValueObservingOptions = [],
        isolation: isolated (any Actor)? = #isolation,
        changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
    ) -> KeyValueObservation {
        // Inlined so that a derived key path's changes run code specialized for its types.
        // The key path goes only into the specialization (see `DerivedSpecialization`),
        // and is `consuming` so that it moves there. Borrowed here, the caller's literal
        // kept a release after the call as a second use, the optimizer did not compile it
        // into the closure, and every change applied the key path object at run time
        // (see Docs/Performance.md). (`publisher(for:)` borrows and is not affected: it
        // passes the key path to an initializer, which takes it owned.)
        let specialization = DerivedSpecialization(keyPath)
        if CallerIsolation.isMainActor(isolation) {
            return observeOnMainThread(specialization, options: options, changeHandler: changeHandler)
        }
        if isolation != nil {
            return observe(on: isolation, specialization, options: options, changeHandler: changeHandler)
        }
        return observe(specialization, options: options, changeHandler: changeHandler)
    }

    /// What `observe` does on the thread that changes the model: the observer of the key
    /// path that `specialization` holds, registered on its channel; `delivery`, if any,
    /// is stopped by the token too.
    ///
    /// Inlinable: run as generic code, the look-up of the channel
    /// (`ObservationTarget.resolve`) and the observer's closures looked up generic
    /// metadata at each step (an `observe` and `invalidate()` of a property measured
    /// 1.25 us).
    @inlinable
    func observe<Value>(
        _ specialization: DerivedSpecialization<Self, Value>, options: KeyValueObservingOptions,
        changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void,
        delivery: (any StoppableDelivery)? = nil
    ) -> KeyValueObservation {
        let (channel, snapshot) = ObservationTarget.resolve(self, specialization: specialization)
        let observer = ChangeHandlerObserver(
            root: self, channel: channel, options: options, handler: changeHandler)
        let token = KeyValueObservation(observer, delivery: delivery)
        observer.register(snapshot: snapshot)
        return token
    }

    /// ``observe(_:options:isolation:changeHandler:)`` from another actor's code: the
    /// handler runs on that actor, asynchronously, but for `.initial`, at once (see
    /// `ActorDelivery`).
    @usableFromInline
    func observe<Value>(
        on isolation: isolated (any Actor)?, _ specialization: DerivedSpecialization<Self, Value>,
        options: KeyValueObservingOptions, changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
    ) -> KeyValueObservation {
        let (delivery, deliver) = ActorDelivery<(Self, KeyValueObservedChange<Value>)>.make(on: isolation) {
            changeHandler($0.0, $0.1)
        }
        return delivery.subscribing {
            observe(specialization, options: options, changeHandler: { deliver(($0, $1)) }, delivery: delivery)
        }
    }

    /// ``observe(_:options:isolation:changeHandler:)`` from main-actor code: the handler
    /// runs on the main queue only (see `MainActorDelivery`); the model travels to the
    /// main queue with the change, when it goes there.
    ///
    /// Inlined, so that the delivery is specialized; a change delivered at once calls the
    /// handler with no tuple of the model and the change (a retain and a release of the
    /// model, whose weak references make them slow).
    @inlinable
    func observeOnMainThread<Value>(
        _ specialization: DerivedSpecialization<Self, Value>, options: KeyValueObservingOptions,
        changeHandler: @escaping (Self, KeyValueObservedChange<Value>) -> Void
    ) -> KeyValueObservation {
        let delivery = MainActorDelivery<(Self, KeyValueObservedChange<Value>)> { changeHandler($0.0, $0.1) }
        return observe(specialization, options: options, changeHandler: { root, change in
            delivery.deliver((root, change)) { changeHandler(root, change) }
        }, delivery: delivery)
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

    /// Tells whoever tracks reads (`autorun`, a computed key path being evaluated) that
    /// the value at `keyPath`, which the model notifies by hand, is being read: they then
    /// depend on it, and its ``didChangeValue(for:)`` reaches them. Call it in the getter
    /// (as Core Data's `willAccessValue(forKey:)`); it costs one load of a thread-local
    /// value when the calling thread does not track. `@Observed` properties need no call.
    ///
    /// ```swift
    /// var celsius: Double {
    ///     get { willAccessValue(for: \.celsius); return storage }
    ///     set { willChangeValue(for: \.celsius); storage = newValue; didChangeValue(for: \.celsius) }
    /// }
    /// ```
    @inlinable
    public func willAccessValue<Value>(for keyPath: KeyPath<Self, Value>) {
        if _slowPath(DependencyTracking.isActive) { recordAccess(keyPath) }
    }

    /// The tracked part of ``willAccessValue(for:)``.
    @usableFromInline
    func recordAccess(_ keyPath: AnyKeyPath) {
        guard let session = DependencyTracking.currentSession else { return }
        let channel = ManualChangeRegistry.channel(for: self, key: keyPath)
        DependencyTracking.record(ObjectIdentifier(channel), into: session) { channel }
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
            guard channel.wantsOld else {
                channel.sendPrior(old: ())
                return
            }
            // The value now, the old one of the change: kept for the matching
            // didChangeValue(for:), and passed to the observation of this key path.
            let old = self[keyPath: keyPath]
            ManualChangeRegistry.pushOld(old, for: self, key: keyPath)
            channel.sendPrior(old: (), indexed: .setting(from: old, key: keyPath, object: self))
        }
    }

    /// Announces that the value at `keyPath` has changed; observers receive the current
    /// value as the new one, and the value at ``willChangeValue(for:)`` as the old one.
    public func didChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
        if let channel = directChannel(keyPath) {
            let old = ManualChangeRegistry.popOld(for: self, key: keyPath) as? Value
            channel.sendChange(old: old, new: self[keyPath: keyPath])
        } else if let channel = ManualChangeRegistry.existingChannel(for: self, key: keyPath) {
            if channel.wantsOld, let old = ManualChangeRegistry.popOld(for: self, key: keyPath) {
                channel.sendChange(old: nil, new: (), indexed: .setting(from: old, key: keyPath, object: self))
            } else {
                channel.sendChange(old: nil, new: ())
            }
        }
    }

    /// Announces an indexed change to the collection at `keyPath` (storage that is not
    /// `@Observed`), as Foundation's `willChange(_:valuesAt:forKey:)`: observers that
    /// asked for `.prior` hear it now, with the kind, the indexes, and with `.old` the
    /// elements at those indexes (for a removal or a replacement). Pair it with
    /// ``didChange(_:valuesAt:for:)``.
    ///
    /// ```swift
    /// final class Playlist: KeyValueObservable {
    ///     private var storage: [String] = []
    ///     var songs: [String] { storage }
    ///     func append(_ song: String) {
    ///         let indexes = RangeSet(storage.count ..< storage.count + 1)
    ///         willChange(.insertion, valuesAt: indexes, for: \.songs)
    ///         storage.append(song)
    ///         didChange(.insertion, valuesAt: indexes, for: \.songs)
    ///     }
    /// }
    /// let token = playlist.observe(\.songs, options: [.new]) { _, change in
    ///     // change.kind == .insertion, change.indexes == RangeSet(0..<1), change.newValue == ["Blue"]
    /// }
    /// playlist.append("Blue")
    /// ```
    ///
    /// `kind` is `.insertion`, `.removal` or `.replacement`; `indexes` are positions in
    /// the collection before the change for a removal or a replacement, after it for an
    /// insertion. Publishers of the key path send the whole new collection, as for a set.
    public func willChange<Elements: RangeReplaceableCollection>(
        _ kind: KeyValueChange, valuesAt indexes: RangeSet<Int>, for keyPath: KeyPath<Self, Elements>
    ) where Elements.Index == Int {
        let before = kind == .insertion ? nil : self[keyPath: keyPath]
        checkIndexedChange(kind, indexes, within: before, "willChange")
        let old = before.map { Self.elements(of: $0, at: indexes) }
        let change = IndexedChange(
            kind: kind, indexes: indexes, key: keyPath, object: ObjectIdentifier(self), oldElements: old, newElements: nil)
        ManualChangeRegistry.pushOld(change, for: self, key: keyPath)
        if let channel = directChannel(keyPath) {
            if channel.wantsPrior { channel.sendPrior(old: self[keyPath: keyPath], indexed: change) }
        } else if let channel = ManualChangeRegistry.existingChannel(for: self, key: keyPath) {
            channel.sendPrior(old: (), indexed: change)
        }
    }

    /// Announces that the indexed change announced by ``willChange(_:valuesAt:for:)`` has
    /// happened: observers hear it with the kind, the indexes, and with `.new` the
    /// elements now at those indexes (for an insertion or a replacement), and with
    /// `.old` those that were there before.
    public func didChange<Elements: RangeReplaceableCollection>(
        _ kind: KeyValueChange, valuesAt indexes: RangeSet<Int>, for keyPath: KeyPath<Self, Elements>
    ) where Elements.Index == Int {
        guard let announced = ManualChangeRegistry.popOld(for: self, key: keyPath) as? IndexedChange,
              announced.kind == kind, announced.indexes == indexes
        else {
            fatalError(
                "Bindings: didChange(\(kind), valuesAt:for: \(keyPath)) was called without a matching willChange(\(kind), valuesAt:for:) for the same key path and indexes; announce each indexed change with willChange first, then make it, then call didChange")
        }
        let current = self[keyPath: keyPath]
        checkIndexedChange(kind, indexes, within: kind == .removal ? nil : current, "didChange")
        let change = IndexedChange(
            kind: kind, indexes: indexes, key: keyPath, object: ObjectIdentifier(self),
            oldElements: announced.oldElements,
            newElements: kind == .removal ? nil : Self.elements(of: current, at: indexes))
        if let channel = directChannel(keyPath) {
            channel.sendChange(old: nil, new: current, indexed: change)
        } else if let channel = ManualChangeRegistry.existingChannel(for: self, key: keyPath) {
            channel.sendChange(old: nil, new: (), indexed: change)
        }
    }

    /// The elements of `collection` at `indexes`, as the same kind of collection.
    private static func elements<Elements: RangeReplaceableCollection>(
        of collection: Elements, at indexes: RangeSet<Int>
    ) -> Elements where Elements.Index == Int {
        var elements = Elements()
        for range in indexes.ranges { elements.append(contentsOf: collection[range]) }
        return elements
    }

    /// Stops with a message naming the mistake when `kind` is not an indexed change, or
    /// when `indexes` fall outside `collection` (if given).
    private func checkIndexedChange<Elements: RangeReplaceableCollection>(
        _ kind: KeyValueChange, _ indexes: RangeSet<Int>, within collection: Elements?, _ function: String
    ) where Elements.Index == Int {
        if kind == .setting {
            fatalError(
                "Bindings: \(function)(.setting, valuesAt:for:) announces an indexed change; pass .insertion, .removal or .replacement, or use \(function == "willChange" ? "willChangeValue(for:)" : "didChangeValue(for:)") for a set")
        }
        if let collection, let first = indexes.ranges.first, let last = indexes.ranges.last,
           first.lowerBound < collection.startIndex || last.upperBound > collection.endIndex
        {
            fatalError(
                "Bindings: \(function)(\(kind), valuesAt:for:) was given indexes \(indexes.ranges) outside the collection's \(collection.startIndex)..<\(collection.endIndex); for an insertion, give the new elements' positions after it, otherwise positions before the change")
        }
    }

    /// The channel of `keyPath` if it is exactly one `@Observed` property of `self`.
    private func directChannel<Value>(_ keyPath: KeyPath<Self, Value>) -> PropertyChannel<Value>? {
        let (_, sources) = DependencyTracking.track { self[keyPath: keyPath] }
        guard sources.count == 1, let channel = sources[0] as? PropertyChannel<Value>,
              channel.ownerID == ObjectIdentifier(self), channel.stands(for: keyPath, owner: self)
        else { return nil }
        return channel
    }
}
