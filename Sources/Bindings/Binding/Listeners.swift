import Dispatch
import Synchronization

/// The listener API: `bind(_:skipInitialValue:handler:)` and `unbind(_:)` on every
/// observed property's projection and on ``ObservableValue``.
///
/// ```swift
/// person.$firstName.bind(label, skipInitialValue: false) { label, name in label.text = name }
/// person.$firstName.unbind(label)
/// ```
/// A listener is held weakly and dropped once released: at once when it is a
/// ``BindingOwner`` (the binding is kept in its `subscriptions` too, and ends with them),
/// otherwise at the next value (any other object has no storage that could end the
/// binding when it goes). Its handlers run in the order they were bound, on the thread
/// that set the value. A handler bound
/// on the main actor is main-actor isolated, so it runs on the main thread: synchronously
/// when the value is set there, otherwise through the main queue, in order.
///
/// Whether the listener is an owner, and whether its conformance may be isolated, is
/// decided at compile time, by the overload the compiler picks (see `bind` below), never
/// by a dynamic cast.
@usableFromInline
protocol ListenerChannelProvider {
    associatedtype ListenedValue
    var listenerChannel: PropertyChannel<ListenedValue> { get }
}

extension ListenerChannelProvider {
    /// Registers the listener's observer. With `storage` (the listener is an owner), also
    /// returns the handle that the caller keeps in the listener's `subscriptions`, so
    /// that the binding ends the moment the owner goes.
    ///
    /// Inlinable, with the `bind` methods that call it: the observer's closure is made
    /// here, where the types are known, and the channel calls it from its own
    /// specialized code, as it calls a `sink`'s (see `ValueObserver`). As a generic
    /// observer of the channel's events, a value cost about 115 ns.
    @inlinable @discardableResult
    func addListener<Listener: AnyObject>(
        _ listener: Listener, skipInitialValue: Bool, onMainActor: Bool, storage: ListenerOwnerStorage?,
        handler: @escaping (Listener, ListenedValue) -> Void
    ) -> AnyCancellable? {
        let reference = WeakReference(listener)
        let link = ListenerLink<ListenedValue>()
        let delivery: MainActorDelivery<ListenedValue>?
        let receiveValue: (ListenedValue) -> Void
        if onMainActor {
            // The listener is loaded again on the main thread, where the handler runs.
            let main = MainActorDelivery<ListenedValue> { value in
                if let listener = reference.object { handler(listener, value) }
            }
            delivery = main
            receiveValue = { value in
                guard let listener = reference.object else { return link.listenerIsGone() }
                main.deliver(value) { handler(listener, value) }
            }
        } else {
            delivery = nil
            receiveValue = { value in
                guard let listener = reference.object else { return link.listenerIsGone() }
                handler(listener, value)
            }
        }
        let observer = ListenerObserver(
            channel: listenerChannel, options: skipInitialValue ? [.new] : [.initial, .new],
            listenerID: ObjectIdentifier(listener), storage: storage, delivery: delivery,
            receiveValue: receiveValue)
        link.observer = Unmanaged.passUnretained(observer)   // before any value can arrive
        let handle = storage.map { _ in AnyCancellable.unchecked({ [weak observer] in observer?.unbind() }) }
        observer.ownerHandle = handle.map(ObjectIdentifier.init)   // before another thread can see it
        observer.register()
        return handle
    }

    /// Binds a listener whose conformance to ``BindingOwner`` is nonisolated.
    @inlinable
    func addOwnerListener<Listener: BindingOwner & SendableMetatype>(
        _ listener: Listener, skipInitialValue: Bool, isolation: (any Actor)?,
        handler: @escaping (Listener, ListenedValue) -> Void
    ) {
        let handle = addListener(
            listener, skipInitialValue: skipInitialValue,
            onMainActor: BindingDelivery.forNonisolatedOwner(isolation) == .mainActor,
            storage: ListenerOwnerStorage(listener, onMainActor: false), handler: handler)
        if let handle { listener.subscriptions.insert(handle) }
    }

    /// Binds a listener whose conformance to ``BindingOwner`` may be isolated: bound on
    /// the main thread, the handler and the owner's storage are only used there. The
    /// handle goes into `subscriptions` here, on the binding's thread, where the caller
    /// can use the conformance.
    @inlinable
    func addPossiblyIsolatedOwnerListener<Listener: BindingOwner>(
        _ listener: Listener, skipInitialValue: Bool, isolation: (any Actor)?,
        handler: @escaping (Listener, ListenedValue) -> Void
    ) {
        let onMainActor = BindingDelivery.forOwnerOfUnknownIsolation(isolation) == .mainActor
        let handle = addListener(
            listener, skipInitialValue: skipInitialValue, onMainActor: onMainActor,
            storage: ListenerOwnerStorage(listener, onMainActor: onMainActor), handler: handler)
        if let handle { listener.subscriptions.insert(handle) }
    }

    func removeListener(_ listener: AnyObject) {
        let id = ObjectIdentifier(listener)
        var handles: Set<ObjectIdentifier> = []
        var storage: ListenerOwnerStorage?
        var onMainActor = false
        for case let observer as any ListenerIdentified in listenerChannel.snapshot() where observer.listenerID == id {
            observer.unbind()
            if let handle = observer.ownerHandle, let ownerStorage = observer.ownerStorage {
                handles.insert(handle)
                storage = ownerStorage
                onMainActor = onMainActor || ownerStorage.onMainActor
            }
        }
        // Take the owner's copies out too, so that binding and unbinding again and again
        // does not grow its storage.
        if !handles.isEmpty, let storage { storage.remove(handles, onMainActor: onMainActor) }
    }
}

/// A listener's `subscriptions`, reached through its conformance to ``BindingOwner``,
/// which the compiler vouched for where the listener was bound.
@usableFromInline
struct ListenerOwnerStorage {
    /// Takes handles out of the owner's `subscriptions` (`unbind(_:)`).
    private let removeHandles: (Set<ObjectIdentifier>) -> Void
    /// The conformance may be isolated to the main actor: the storage is only touched on
    /// the main thread.
    let onMainActor: Bool

    @usableFromInline
    init<Owner: BindingOwner>(_ owner: Owner, onMainActor: Bool) {
        removeHandles = { [weak owner] handles in
            guard let owner else { return }
            owner.subscriptions = owner.subscriptions.filter { !handles.contains(ObjectIdentifier($0)) }
        }
        self.onMainActor = onMainActor
    }

    /// Takes `handles` out of the owner's storage: on this thread, or when the storage
    /// may only be touched on the main thread and this is another one, through the main
    /// queue (the handles are already inert: this only keeps the storage from growing).
    func remove(_ handles: Set<ObjectIdentifier>, onMainActor: Bool) {
        if !onMainActor || MainThread.isCurrent {
            removeHandles(handles)
        } else {
            let removal = MainQueueRemoval(remove: removeHandles, handles: handles)
            DispatchQueue.main.async { removal.run() }
        }
    }

    /// The removal, handed to the main queue. `@unchecked Sendable`: the closure holds the
    /// owner weakly and only touches its `subscriptions`, which for an owner bound on the
    /// main thread with a conformance that may be isolated to the main actor belong to the
    /// main actor; it runs only there, once.
    private struct MainQueueRemoval: @unchecked Sendable {
        let remove: (Set<ObjectIdentifier>) -> Void
        let handles: Set<ObjectIdentifier>
        func run() { remove(handles) }
    }
}

extension Observed.Publisher: ListenerChannelProvider {
    @usableFromInline var listenerChannel: PropertyChannel<Value> { channel }

    /// Calls `handler` with `listener` and the current value (unless `skipInitialValue`),
    /// then with every new value, as long as `listener` lives or until ``unbind(_:)``.
    ///
    /// ```swift
    /// person.$firstName.bind(token, skipInitialValue: false) { token, name in print(name) }
    /// ```
    ///
    /// For a listener that is not a ``BindingOwner``: it is dropped at the property's next
    /// value once released. `isolation` is the caller's: bound on the main actor,
    /// `handler` only runs on the main thread.
    @inlinable
    public func bind<Listener: AnyObject>(
        _ listener: Listener, skipInitialValue: Bool = false, isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Listener, Value) -> Void
    ) {
        CallerIsolation.subscribingOnCallerActor(isolation, handler) { handler in
            addListener(
                listener, skipInitialValue: skipInitialValue, onMainActor: isolation === MainActor.shared,
                storage: nil, handler: handler)
        }
    }

    /// Calls `handler` with `listener` and the current value (unless `skipInitialValue`),
    /// then with every new value, as long as `listener` lives or until ``unbind(_:)``.
    ///
    /// ```swift
    /// person.$firstName.bind(label, skipInitialValue: false) { label, name in label.text = name }
    /// ```
    ///
    /// For a listener that is a ``BindingOwner`` with a nonisolated conformance (the
    /// compiler picks this overload for those): the binding is also kept in its
    /// `subscriptions`, and ends the moment it deinitialises. `isolation` is the caller's:
    /// bound on the main actor, `handler` only runs on the main thread.
    @inlinable
    public func bind<Listener: BindingOwner & SendableMetatype>(
        _ listener: Listener, skipInitialValue: Bool = false, isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Listener, Value) -> Void
    ) {
        CallerIsolation.subscribingOnCallerActor(isolation, handler) { handler in
            addOwnerListener(listener, skipInitialValue: skipInitialValue, isolation: isolation, handler: handler)
        }
    }

    /// Calls `handler` with `listener` and the current value (unless `skipInitialValue`),
    /// then with every new value, as long as `listener` lives or until ``unbind(_:)``.
    ///
    /// ```swift
    /// person.$firstName.bind(statusLine) { line, name in line.text = name }   // on the main actor
    /// ```
    ///
    /// For a listener that is a ``BindingOwner`` whose conformance may be isolated (a
    /// main-actor owner, or a generic owner type): the binding is also kept in its
    /// `subscriptions`, and ends the moment it deinitialises. Bound on the main actor or on
    /// the main thread, `handler` only runs on the main thread, and the listener's
    /// `subscriptions` is only touched there.
    @inlinable
    public func bind<Listener: BindingOwner>(
        _ listener: Listener, skipInitialValue: Bool = false, isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Listener, Value) -> Void
    ) {
        CallerIsolation.subscribingOnCallerActor(isolation, handler) { handler in
            addPossiblyIsolatedOwnerListener(
                listener, skipInitialValue: skipInitialValue, isolation: isolation, handler: handler)
        }
    }

    /// Removes every handler that `listener` bound to this property.
    public func unbind(_ listener: AnyObject) {
        removeListener(listener)
    }
}

extension ObservableValue: ListenerChannelProvider {
    @usableFromInline var listenerChannel: PropertyChannel<Value> { channel }

    /// Calls `handler` with `listener` and the current value (unless `skipInitialValue`),
    /// then with every update, as long as `listener` lives or until ``unbind(_:)``.
    ///
    /// ```swift
    /// title.bind(token) { token, title in print(title) }
    /// ```
    ///
    /// For a listener that is not a ``BindingOwner``: it is dropped at the next update
    /// once released. `isolation` is the caller's: bound on the main actor, `handler` only
    /// runs on the main thread.
    @inlinable
    public func bind<Listener: AnyObject>(
        _ listener: Listener, skipInitialValue: Bool = false, isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Listener, Value) -> Void
    ) {
        CallerIsolation.subscribingOnCallerActor(isolation, handler) { handler in
            addListener(
                listener, skipInitialValue: skipInitialValue, onMainActor: isolation === MainActor.shared,
                storage: nil, handler: handler)
        }
    }

    /// Calls `handler` with `listener` and the current value (unless `skipInitialValue`),
    /// then with every update, as long as `listener` lives or until ``unbind(_:)``.
    ///
    /// ```swift
    /// title.bind(label) { label, title in label.text = title }
    /// ```
    ///
    /// For a listener that is a ``BindingOwner`` with a nonisolated conformance (the
    /// compiler picks this overload for those): the binding is also kept in its
    /// `subscriptions`, and ends the moment it deinitialises. `isolation` is the caller's:
    /// bound on the main actor, `handler` only runs on the main thread.
    @inlinable
    public func bind<Listener: BindingOwner & SendableMetatype>(
        _ listener: Listener, skipInitialValue: Bool = false, isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Listener, Value) -> Void
    ) {
        CallerIsolation.subscribingOnCallerActor(isolation, handler) { handler in
            addOwnerListener(listener, skipInitialValue: skipInitialValue, isolation: isolation, handler: handler)
        }
    }

    /// Calls `handler` with `listener` and the current value (unless `skipInitialValue`),
    /// then with every update, as long as `listener` lives or until ``unbind(_:)``.
    ///
    /// ```swift
    /// title.bind(statusLine) { line, title in line.text = title }   // on the main actor
    /// ```
    ///
    /// For a listener that is a ``BindingOwner`` whose conformance may be isolated (a
    /// main-actor owner, or a generic owner type): the binding is also kept in its
    /// `subscriptions`, and ends the moment it deinitialises. Bound on the main actor or on
    /// the main thread, `handler` only runs on the main thread, and the listener's
    /// `subscriptions` is only touched there.
    @inlinable
    public func bind<Listener: BindingOwner>(
        _ listener: Listener, skipInitialValue: Bool = false, isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Listener, Value) -> Void
    ) {
        CallerIsolation.subscribingOnCallerActor(isolation, handler) { handler in
            addPossiblyIsolatedOwnerListener(
                listener, skipInitialValue: skipInitialValue, isolation: isolation, handler: handler)
        }
    }

    /// Removes every handler that `listener` bound to this value.
    public func unbind(_ listener: AnyObject) {
        removeListener(listener)
    }
}

/// A listener observer's identity, for `unbind(_:)`.
protocol ListenerIdentified: AnyObject {
    var listenerID: ObjectIdentifier { get }
    /// The cancellable kept in the listener's `subscriptions` when it is an owner.
    var ownerHandle: ObjectIdentifier? { get }
    /// The listener's `subscriptions`, when it is an owner.
    var ownerStorage: ListenerOwnerStorage? { get }
    /// Stops the handler at once, including values still queued for the main thread.
    func unbind()
}

/// A listener's observer, which its channel holds while it is registered (a listener that
/// is not an owner has nothing else to keep it). A ``PropertyValueReceiver``: the
/// channel's code, specialized for the value's type, gives it each new value as it is,
/// and it calls its closure (made by `ListenerChannelProvider.addListener`, where the types
/// are known), which holds the listener weakly, unregisters the observer at the first
/// value after the listener is gone, and, for a handler bound on the main actor, delivers
/// through a ``MainActorDelivery``.
@usableFromInline
final class ListenerObserver<Value>: PropertyValueReceiver<Value>, ListenerIdentified, @unchecked Sendable {
    // `@unchecked Sendable` (the base classes document their own fields):
    // - `receiveValue`: a `let`, called by one thread at a time (the channel's deliverer;
    //   for the initial value, the registering thread before the observer joins).
    // - `listenerID`, `ownerStorage`, `delivery`: `let`s. `ownerStorage` is only used by
    //   `unbind(_:)`, on the main thread when the owner's conformance may be main-actor
    //   isolated (`ListenerOwnerStorage.remove`); `delivery` is `Sendable`.
    // - `ownerHandle`: written once, before `register()` publishes it under the channel's
    //   lock; read after `snapshot()` takes that lock.
    private let receiveValue: (Value) -> Void
    let listenerID: ObjectIdentifier
    /// Set once, on the binding's thread, before `bind` returns; read by `unbind(_:)`.
    @usableFromInline var ownerHandle: ObjectIdentifier?
    let ownerStorage: ListenerOwnerStorage?
    /// The main-thread delivery of a handler bound on the main actor.
    private let delivery: (any StoppableDelivery)?

    @usableFromInline
    init(
        channel: PropertyChannel<Value>, options: KeyValueObservingOptions, listenerID: ObjectIdentifier,
        storage: ListenerOwnerStorage?, delivery: (any StoppableDelivery)?,
        receiveValue: @escaping (Value) -> Void
    ) {
        self.receiveValue = receiveValue
        self.listenerID = listenerID
        ownerStorage = storage
        self.delivery = delivery
        super.init(channel: channel, options: options)
    }

    override func receiveNew(_ value: Value) {
        receiveValue(value)
    }

    /// A change that waited in the channel's queue, or a prior notice (which listeners
    /// do not take).
    override func receive(_ event: PropertyEvent<Value>) {
        if !event.isPrior, let value = event.new { receiveValue(value) }
    }

    /// Stops the handler at once, values still queued for the main thread included.
    @usableFromInline
    func unbind() {
        delivery?.cancel()
        unregister()
    }
}

/// Lets a listener's closure unregister its observer once the listener is gone.
@usableFromInline
final class ListenerLink<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `observer` is written once, before the observer registers
    // (so before any value can reach the closure), and read only by the closure.

    /// The observer, unretained: it owns the closure that owns this link, and the closure
    /// runs only when the channel calls it through the observer, which the channel holds
    /// while it is registered, and the deliverer until its delivery ends.
    @usableFromInline var observer: Unmanaged<ListenerObserver<Value>>?

    @usableFromInline init() {}

    /// The listener is gone: the observer leaves its channel.
    @usableFromInline
    func listenerIsGone() {
        observer?._withUnsafeGuaranteedRef { $0.unregister() }
    }
}
