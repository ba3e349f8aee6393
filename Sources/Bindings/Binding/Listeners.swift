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
protocol ListenerChannelProvider {
    associatedtype ListenedValue
    var listenerChannel: PropertyChannel<ListenedValue> { get }
}

extension ListenerChannelProvider {
    /// Registers the listener's observer. With `storage` (the listener is an owner), also
    /// returns the handle that the caller keeps in the listener's `subscriptions`, so
    /// that the binding ends the moment the owner goes.
    @discardableResult
    func addListener<Listener: AnyObject>(
        _ listener: Listener, skipInitialValue: Bool, onMainActor: Bool, storage: ListenerOwnerStorage?,
        handler: @escaping (Listener, ListenedValue) -> Void
    ) -> AnyCancellable? {
        let observer = ListenerObserver(
            channel: listenerChannel, options: skipInitialValue ? [.new] : [.initial, .new],
            listener: listener, onMainActor: onMainActor, storage: storage, handler: handler)
        let handle = storage.map { _ in AnyCancellable.unchecked({ [weak observer] in observer?.unbind() }) }
        observer.ownerHandle = handle.map(ObjectIdentifier.init)   // before another thread can see it
        observer.register()
        return handle
    }

    /// Binds a listener whose conformance to ``BindingOwner`` is nonisolated.
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
struct ListenerOwnerStorage {
    /// Takes handles out of the owner's `subscriptions` (`unbind(_:)`).
    private let removeHandles: (Set<ObjectIdentifier>) -> Void
    /// The conformance may be isolated to the main actor: the storage is only touched on
    /// the main thread.
    let onMainActor: Bool

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
    var listenerChannel: PropertyChannel<Value> { channel }

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
    var listenerChannel: PropertyChannel<Value> { channel }

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

/// Holds its listener weakly; once the listener is gone it unregisters itself at the next
/// value.
final class ListenerObserver<Listener: AnyObject, Value>: PropertyObserver<Value>, ListenerIdentified,
    @unchecked Sendable
{
    // `@unchecked Sendable` (the base classes document their own fields):
    // - `listener`: a `weak let` (loaded atomically by the runtime); `listenerID`,
    //   `onMainActor`: `let`s.
    // - `handler`: a `let`, called by one thread at a time: the deliverer (the registering
    //   thread for the initial value), or with `onMainActor` the main thread only.
    // - `ownerStorage`: a `let`, only used by `unbind(_:)`, on the main thread when the
    //   owner's conformance may be main-actor isolated (`ListenerOwnerStorage.remove`).
    // - `ownerHandle`: written once, before `register()` publishes it under the channel's
    //   lock; read after `snapshot()` takes that lock.
    // - `unbound`, `queued`: atomics.
    private weak let listener: Listener?
    let listenerID: ObjectIdentifier
    /// Set once, on the binding's thread, before `bind` returns; read by `unbind(_:)`.
    var ownerHandle: ObjectIdentifier?
    let ownerStorage: ListenerOwnerStorage?
    private let handler: (Listener, Value) -> Void
    /// The handler is main-actor isolated: it only runs on the main thread.
    private let onMainActor: Bool
    private let unbound = Atomic<Bool>(false)
    /// Values sent to the main queue and not handled yet (see `BindingSubscriber`).
    private let queued = Atomic<Int>(0)

    init(channel: PropertyChannel<Value>, options: KeyValueObservingOptions, listener: Listener,
         onMainActor: Bool, storage: ListenerOwnerStorage?, handler: @escaping (Listener, Value) -> Void) {
        self.listener = listener
        listenerID = ObjectIdentifier(listener)
        self.onMainActor = onMainActor
        ownerStorage = storage
        self.handler = handler
        super.init(channel: channel, options: options)
    }

    func unbind() {
        unbound.store(true, ordering: .releasing)
        unregister()
    }

    override func receive(_ event: PropertyEvent<Value>) {
        guard let listener else {
            unregister()
            return
        }
        guard !event.isPrior, let value = event.new else { return }
        if !onMainActor || (queued.load(ordering: .acquiring) == 0 && MainThread.isCurrent) {
            handler(listener, value)
        } else {
            enqueueOnMain(Delivery(value: value))
        }
    }

    /// A value on its way to the main queue. `@unchecked Sendable`: it is handed from the
    /// setting thread to the main queue and only used there.
    private struct Delivery: @unchecked Sendable {
        let value: Value
    }

    private func enqueueOnMain(_ delivery: Delivery) {
        queued.add(1, ordering: .acquiringAndReleasing)
        DispatchQueue.main.async { [self] in
            defer { queued.subtract(1, ordering: .acquiringAndReleasing) }
            guard !unbound.load(ordering: .acquiring), let listener else { return }
            handler(listener, delivery.value)
        }
    }
}
