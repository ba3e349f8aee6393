import Synchronization

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
///
/// Observers are notified when the value is stored, from inside this wrapper: after the
/// property's `willSet`, but before its `didSet` (Foundation's KVO notifies after the
/// whole setter). An observer, or a computed key path, that reads state which `didSet`
/// updates sees that state as it was before the set. Compute such state in a computed
/// property instead, or make it observable too (`@Observed`, or notified by hand with
/// `willChangeValue(for:)` and `didChangeValue(for:)` around its update). See "`didSet`
/// runs after the observers" in the guide Migrating from Foundation KVO.
@propertyWrapper
public struct Observed<Value> {
    /// Owns the channel; released with the model, it closes the channel, which is how
    /// observers learn that the model is gone.
    @usableFromInline var anchor: ChannelAnchor?
    /// The property's channel, created the first time the property is observed; `nil`
    /// keeps unobserved sets free. Unmanaged so that a set does not retain it: `anchor`
    /// owns it, and lives exactly as long as this storage, so the channel is alive
    /// whenever the model is being set. Written once, under the creation lock (see
    /// `channel(of:storage:projected:)`); read by sets without it, which is safe because
    /// a set and an observation of the same model do not run at once (the model's
    /// isolation orders them, SPEC section 6).
    @usableFromInline var channel: Unmanaged<PropertyChannel<Value>>?
    /// The stored value.
    @usableFromInline var value: Value

    /// Creates the storage with an initial value.
    @inlinable
    public init(wrappedValue: Value) {
        anchor = nil
        channel = nil
        value = wrappedValue
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
    //
    // The storage key path never leaves them: no out-of-line code gets it, as a value or
    // captured by a closure. Then every access to the storage is one the optimizer sees,
    // and where none can overlap another (no access spans a call it cannot see into),
    // it proves the property's exclusivity at compile time and drops the run-time
    // check of each access (`swift_beginAccess`, about 5 ns here, a thread-local
    // look-up). A single storage key path that escapes keeps the check on every access
    // to the property. Out-of-line code reaches the value through the wrapped key path
    // or the projection's key path instead, which go through these accessors.

    /// The property's value, read and written through the enclosing instance.
    @inlinable
    public static subscript<Instance: KeyValueObservable>(
        _enclosingInstance instance: Instance,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Instance, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Instance, Observed<Value>>
    ) -> Value {
        @inline(__always) get {
            // This thread is tracking dependencies (rare): only then does the read count,
            // and only then is the channel worth creating. The tracked read also tells
            // the channel which key path it stands for, so that observing exactly this
            // property observes its channel directly. (Using `wrappedKeyPath` here makes
            // every read materialise it; see Docs/Performance.md.)
            let session = DependencyTracking.currentSession
            if _slowPath(session != nil) {
                return trackedRead(
                    of: instance, storage: storageKeyPath, wrapped: wrappedKeyPath, session: session!)
            }
            return instance[keyPath: storageKeyPath].value
        }
        @inline(__always) set {
            store(newValue, in: instance, storage: storageKeyPath)
        }
        @inline(__always) _modify {
            // One yield: with one per path (three), the optimizer left the coroutine a
            // call, which made both key paths at each in-place mutation and let the
            // storage key path escape (see the note at the top of the accessors).
            // Unretained, as in `store`: the anchor, in the storage, owns the channel.
            let channel = instance[keyPath: storageKeyPath].channel
            let old: Value?
            if let channel, channel._withUnsafeGuaranteedRef({ $0.wantsOld }) {
                // Someone asked for old values: keeping one means a copy, as with KVO.
                let value = instance[keyPath: storageKeyPath].value
                channel._withUnsafeGuaranteedRef { if $0.wantsPrior { $0.sendPrior(old: value) } }
                old = value
            } else {
                old = nil
            }
            yield &instance[keyPath: storageKeyPath].value
            if let channel {
                let new = instance[keyPath: storageKeyPath].value
                channel._withUnsafeGuaranteedRef { $0.sendChange(old: old, new: new) }
            }
        }
    }

    /// Stores `newValue` in the property and notifies its observers: the setter, also
    /// for `assign(to:)`.
    @inlinable @inline(__always)
    static func store<Instance: KeyValueObservable>(
        _ newValue: Value, in instance: Instance, storage storageKeyPath: ReferenceWritableKeyPath<Instance, Observed<Value>>
    ) {
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

    /// The projection, `$property`: a publisher of the current value, then each new one.
    ///
    /// Settable only so that `publisher.assign(to: &model.$property)` compiles, as with
    /// `@Published`: passing the projection `inout` sets it back once `assign(to:)`
    /// returns, and that set, which knows the model, starts the assignment. Setting the
    /// projection to anything else does nothing.
    @inlinable
    public static subscript<Instance: KeyValueObservable>(
        _enclosingInstance instance: Instance,
        projected projectedKeyPath: ReferenceWritableKeyPath<Instance, Publisher>,
        storage storageKeyPath: ReferenceWritableKeyPath<Instance, Observed<Value>>
    ) -> Publisher {
        @inline(__always) get {
            let channel = channel(of: instance, storage: storageKeyPath, projected: projectedKeyPath)
            // Read here, where it is a field load, for the subscription that usually follows.
            return Publisher(
                channel: channel,
                snapshot: PropertyChannel.Snapshot(value: instance[keyPath: storageKeyPath].value, version: channel.version))
        }
        @inline(__always) set {
            switch newValue.request {
            case .store?:
                store(newValue.snapshot.value, in: instance, storage: storageKeyPath)
            case .assign(let assignment)?:
                // Only this property's own projection starts it. One of another model
                // (or property), set here, is a copy as far as this one is concerned,
                // and a copy assigns nothing (see `assign(to:)`). The getter that made the
                // projection made the channel, and the anchor, which keeps the assignment.
                let (channel, anchor) = instance[keyPath: storageKeyPath].channelAndAnchor
                guard let channel, channel.toOpaque() == Unmanaged.passUnretained(newValue.channel).toOpaque(),
                      let anchor
                else { return }
                startAssignment(
                    assignment, on: instance, anchor: anchor, channel: newValue.channel, projected: projectedKeyPath)
            case nil:
                return
            }
        }
    }

    /// Not for direct use: `$property` is read through the enclosing instance.
    @available(*, unavailable, message: "$property is only available on properties of classes that conform to KeyValueObservable")
    public var projectedValue: Publisher {
        get { fatalError("unavailable") }
        // Declared so that `$property` is settable, for `assign(to: &model.$property)`.
        set { fatalError("unavailable") }
    }

    /// The property's channel, created on first use.
    ///
    /// Observing reads the model, so it runs where reading the model is safe (its
    /// isolation, or any thread while nobody sets it: SPEC section 6), but several
    /// threads may observe one model at once. So the look-up and the creation take a
    /// lock (one of ``ChannelCreation``'s, picked by the model), and exactly one channel
    /// is ever made per property: two first observers on two threads share it.
    ///
    /// Always inlined, and it uses the storage key path only for accesses that fold into
    /// field accesses (see the note at the top of the accessors); the creation is out of
    /// line, and reads the value through the projection's key path, `projected`.
    ///
    /// The key paths go to out-of-line code as autoclosures: the optimizer then
    /// specializes the callee for them, and no key path object is made unless it is used
    /// (a key path passed as a value was made at the top of every read of the property,
    /// ~30 ns each, measured).
    @inlinable @inline(__always)
    static func channel<Instance: KeyValueObservable>(
        of instance: Instance, storage: ReferenceWritableKeyPath<Instance, Observed<Value>>,
        projected: @autoclosure () -> KeyPath<Instance, Publisher>
    ) -> PropertyChannel<Value> {
        let lock = ChannelCreation.lockIndex(for: instance)
        ChannelCreation.lock(lock)
        defer { ChannelCreation.unlock(lock) }
        if let channel = instance[keyPath: storage].channel { return channel.takeUnretainedValue() }
        let made = makeChannel(of: instance, readingProjection: projected())
        return install(made, in: instance, storage: storage).takeUnretainedValue()
    }

    /// Keeps a channel just made in the property's storage, with the anchor that owns it;
    /// returns it. Under the creation lock. Inlined, so that the storage key path folds
    /// into field accesses.
    @inlinable @inline(__always)
    static func install<Instance: KeyValueObservable>(
        _ made: MadeChannel, in instance: Instance, storage: ReferenceWritableKeyPath<Instance, Observed<Value>>
    ) -> Unmanaged<PropertyChannel<Value>> {
        instance[keyPath: storage].anchor = made.anchor
        instance[keyPath: storage].channel = made.channel
        return made.channel
    }

    /// A channel just made, and the anchor that owns it (so the channel is unretained).
    @usableFromInline
    typealias MadeChannel = (channel: Unmanaged<PropertyChannel<Value>>, anchor: ChannelAnchor)

    /// A read while the current thread tracks dependencies (`session`): reports the
    /// property's channel to the session, and returns the value.
    ///
    /// The channel is looked up as ``channel(of:storage:projected:)`` does, under the
    /// creation lock (except for the model whose set this thread is delivering, which the
    /// set itself looks up without it), and the value is read in the same access to the storage
    /// (``channelAndValue``): where the optimizer cannot prove the property's exclusivity
    /// (see the note at the top of the accessors), each access is checked at run time,
    /// and a tracked read made two.
    ///
    /// Inlined into every getter, lock and match included: out of line, the storage key
    /// path does not fold into a field access, and calls here measured 7 to 15 ns more
    /// per `autorun` run (see Docs/Performance.md). The first read of a property, which
    /// makes its channel or tells it the key path it stands for, `wrapped` (see
    /// ``PropertyChannel/key``), is rare, so its work is out of line, to keep every
    /// getter's code smaller, all but the storage's writes (see the note at the top of
    /// the accessors).
    @inlinable @inline(__always)
    static func trackedRead<Instance: KeyValueObservable>(
        of instance: Instance, storage: ReferenceWritableKeyPath<Instance, Observed<Value>>,
        wrapped: @autoclosure () -> ReferenceWritableKeyPath<Instance, Value>, session: UnsafeMutableRawPointer
    ) -> Value {
        // A read of the model whose set this thread is delivering skips the lock: nobody
        // else makes its channels meanwhile (see `DependencyTracking.Recorder.trustedOwner`).
        let trusted = DependencyTracking.trusts(ObjectIdentifier(instance), session: session)
        let lock = ChannelCreation.lockIndex(for: instance)
        if !trusted { ChannelCreation.lock(lock) }
        let (found, value) = instance[keyPath: storage].channelAndValue
        let channel: Unmanaged<PropertyChannel<Value>>
        if let found, found._withUnsafeGuaranteedRef({ $0.key != nil }) {
            channel = found
        } else {
            if trusted { ChannelCreation.lock(lock) }
            channel = found ?? install(makeChannel(of: instance, readingWrapped: wrapped()), in: instance, storage: storage)
            learnKeyIfNeeded(channel, wrapped(), model: instance)
            if trusted { ChannelCreation.unlock(lock) }
        }
        if !trusted { ChannelCreation.unlock(lock) }
        channel._withUnsafeGuaranteedRef { channel in
            DependencyTracking.record(ObjectIdentifier(channel), into: session) { channel }
        }
        return value
    }

    /// The first tracked read of a property: tells its channel the key path it stands
    /// for, if it does not know it yet. Under the creation lock.
    @usableFromInline @inline(never)
    static func learnKeyIfNeeded(
        _ channel: Unmanaged<PropertyChannel<Value>>, _ wrapped: @autoclosure () -> AnyKeyPath, model: AnyObject
    ) {
        if channel._withUnsafeGuaranteedRef({ $0.key == nil }) {
            learnKey(channel.takeUnretainedValue(), wrapped(), model: model)
        }
    }

    /// The channel and the anchor, read together: one access to the storage.
    @inlinable
    var channelAndAnchor: (Unmanaged<PropertyChannel<Value>>?, ChannelAnchor?) {
        @inline(__always) get { (channel, anchor) }
    }

    /// The channel and the value, read together: one access to the storage.
    @inlinable
    var channelAndValue: (Unmanaged<PropertyChannel<Value>>?, Value) {
        @inline(__always) get { (channel, value) }
    }

    /// Tells `channel` the key path it stands for, and the property's name, which
    /// messages use (the wrapped key path prints as `<computed ...>`), found among the
    /// model's stored properties by reflection once per model class (see
    /// ``PropertyNames``), and no key path object for the storage (passing one here made
    /// every tracked read materialise it, measured). Under the creation lock.
    @usableFromInline @inline(never)
    static func learnKey(_ channel: PropertyChannel<Value>, _ key: @autoclosure () -> AnyKeyPath, model: AnyObject) {
        let key = key()
        channel.key = key
        channel.propertyName = PropertyNames.name(of: key, in: type(of: model)) {
            guard let (label, _) = storage(of: Unmanaged.passUnretained(channel), in: model), let label else { return nil }
            return "\(type(of: model)).\(label.hasPrefix("_") ? String(label.dropFirst()) : label)"
        }
    }

    /// The storage of the `@Observed` property of `model` whose channel is `channel`, and
    /// its label, found by reflection among the stored properties of the model's class
    /// and its superclasses (`nil` if none has it). Slow (a walk of the model's stored
    /// properties): for a channel's first tracked read, and for the rare read of a
    /// channel with no current snapshot on a subclass's instance.
    static func storage(
        of channel: Unmanaged<PropertyChannel<Value>>, in model: AnyObject
    ) -> (label: String?, storage: Observed<Value>)? {
        let target = channel.toOpaque()
        var mirror: Mirror? = Mirror(reflecting: model)
        while let current = mirror {
            for child in current.children {
                if let storage = child.value as? Observed<Value>, storage.channel?.toOpaque() == target {
                    return (child.label, storage)
                }
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// Creates the property's channel and the anchor that owns it, for a first tracked
    /// read; under the creation lock, with no channel yet. The caller keeps them in the
    /// storage (``install(_:in:storage:)``).
    ///
    /// The channel reads the current value (for a new observer's initial value, when the
    /// observer brings no current ``PropertyChannel/Snapshot``) through the property's
    /// getter, `wrapped`, with dependency tracking paused: the read is the channel's, not
    /// the tracking code's. See ``makeChannel(of:read:)`` for the model it holds.
    ///
    /// Only when the model is exactly of the class that declares the property: then the
    /// getter is the wrapper's, which only reads the storage. A subclass may override it,
    /// and an override would run the subclass's code under the channel's lock, and give
    /// another value than sets deliver (the stored one). So the channel of a subclass's
    /// instance reads the storage by reflection (``storage(of:in:)``; a model that
    /// customizes its mirror runs that code there, as the first tracked read's look-up of
    /// the property's name does).
    @usableFromInline @inline(never)
    static func makeChannel<Instance: KeyValueObservable>(
        of instance: Instance, readingWrapped wrapped: @autoclosure () -> ReferenceWritableKeyPath<Instance, Value>
    ) -> MadeChannel {
        let wrapped = wrapped()
        guard ObjectIdentifier(type(of: instance)) == ObjectIdentifier(Instance.self) else {
            return makeChannel(of: instance) { instance, channel in
                // The getter is the last resort, for a model whose `customMirror` hides
                // the storage.
                storage(of: channel, in: instance)?.storage.value
                    ?? DependencyTracking.untracked { instance[keyPath: wrapped] }
            }
        }
        return makeChannel(of: instance) { instance, _ in
            DependencyTracking.untracked { instance[keyPath: wrapped] }
        }
    }

    /// Creates the property's channel and the anchor that owns it, for its projection;
    /// under the creation lock, with no channel yet. The channel reads the current value
    /// through the projection, `projected`, whose getter reads it with the channel's
    /// snapshot. That getter takes the creation lock, which is safe under the channel's
    /// lock, where reads happen: nothing takes a channel's lock under the creation lock.
    @usableFromInline @inline(never)
    static func makeChannel<Instance: KeyValueObservable>(
        of instance: Instance, readingProjection projected: @autoclosure () -> KeyPath<Instance, Publisher>
    ) -> MadeChannel {
        let projected = projected()
        return makeChannel(of: instance) { instance, _ in instance[keyPath: projected].snapshot.value }
    }

    /// Creates a channel for a property of `instance` that `read` reads, and its anchor.
    ///
    /// The channel reads through the model, held `unowned(unsafe)`, which the anchor
    /// bounds: the channel reads it only under its lock while open, and the anchor closes
    /// it, under that lock, when the model deinitialises. A read comes from a new
    /// observer, which reads the model, so it runs where reading the model is safe (SPEC
    /// section 6), never during the model's deinit; after the deinit it finds the channel
    /// closed and reads nothing.
    ///
    /// `read` is given the channel too, unretained (the anchor owns it).
    static func makeChannel<Instance: KeyValueObservable>(
        of instance: Instance, read: @escaping (Instance, Unmanaged<PropertyChannel<Value>>) -> Value
    ) -> MadeChannel {
        // Set once, before the channel is shared (under the creation lock, which every
        // thread that finds the channel takes), and only read after.
        var made: Unmanaged<PropertyChannel<Value>>?
        let channel = PropertyChannel<Value>(ownerID: ObjectIdentifier(instance)) { [unowned(unsafe) instance] in
            read(instance, made!)
        }
        made = Unmanaged.passUnretained(channel)
        return (made!, ChannelAnchor(channel))
    }
}

/// Owns an `@Observed` property's channel and closes it when the property's storage is
/// destroyed with its model; owns the property's `assign(to:)` subscriptions too, and
/// cancels them then.
@usableFromInline
final class ChannelAnchor {
    private let channel: any ClosableChannel
    /// The property's `assign(to:)` subscriptions, made at the first one. Touched where
    /// the model is set (the projection's setter, on the model's isolation) and in this
    /// deinit; the list has a lock of its own for the subscriptions that leave it.
    private var assignments: ObservedAssignments?

    init(_ channel: any ClosableChannel) { self.channel = channel }

    /// The list of the property's `assign(to:)` subscriptions, made if there is none.
    @usableFromInline
    var assignmentList: ObservedAssignments {
        if let assignments { return assignments }
        let made = ObservedAssignments()
        assignments = made
        return made
    }

    deinit {
        // The model is gone: its assignments end first, then its observers hear the end.
        assignments?.cancelAll()
        channel.close()
    }
}

/// A channel that can be closed when its source is gone.
@usableFromInline
protocol ClosableChannel: AnyObject {
    func close()
}

extension PropertyChannel: ClosableChannel {}
