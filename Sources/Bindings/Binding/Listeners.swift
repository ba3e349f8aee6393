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
protocol ListenerChannelProvider {
    associatedtype ListenedValue
    var listenerChannel: PropertyChannel<ListenedValue> { get }
}

extension ListenerChannelProvider {
    func addListener<Listener: AnyObject>(
        _ listener: Listener, skipInitialValue: Bool, isolation: (any Actor)?,
        handler: @escaping (Listener, ListenedValue) -> Void
    ) {
        let observer = ListenerObserver(
            channel: listenerChannel, options: skipInitialValue ? [.new] : [.initial, .new],
            listener: listener, onMainActor: isolation === MainActor.shared, handler: handler)
        // An owner's storage can end the binding the moment the owner goes. Where its
        // conformance cannot be used (a main-actor owner, off the main thread), the
        // binding still ends at the next value.
        let owner = usableOwner(listener)
        let handle = owner.map { _ in AnyCancellable { [weak observer] in observer?.unbind() } }
        observer.ownerHandle = handle.map(ObjectIdentifier.init)   // before another thread can see it
        observer.register()
        if let owner, let handle { owner.subscriptions.insert(handle) }
    }

    func removeListener(_ listener: AnyObject) {
        let id = ObjectIdentifier(listener)
        var handles: Set<ObjectIdentifier> = []
        for case let observer as any ListenerIdentified in listenerChannel.snapshot() where observer.listenerID == id {
            observer.unbind()
            if let handle = observer.ownerHandle { handles.insert(handle) }
        }
        // Take the owner's copies out too, so that binding and unbinding again and again
        // does not grow its storage.
        if !handles.isEmpty, let owner = usableOwner(listener) {
            owner.subscriptions = owner.subscriptions.filter { !handles.contains(ObjectIdentifier($0)) }
        }
    }
}

extension Observed.Publisher: ListenerChannelProvider {
    var listenerChannel: PropertyChannel<Value> { channel }

    /// Calls `handler` with `listener` and the current value (unless `skipInitialValue`),
    /// then with every new value, as long as `listener` lives or until ``unbind(_:)``.
    ///
    /// ```swift
    /// person.$firstName.bind(label, skipInitialValue: false) { label, name in label.text = name }
    /// ```
    ///
    /// `isolation` is the caller's: bound on the main actor, `handler` only runs on the
    /// main thread.
    public func bind<Listener: AnyObject>(
        _ listener: Listener, skipInitialValue: Bool = false, isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Listener, Value) -> Void
    ) {
        addListener(listener, skipInitialValue: skipInitialValue, isolation: isolation, handler: handler)
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
    /// title.bind(label) { label, title in label.text = title }
    /// ```
    ///
    /// `isolation` is the caller's: bound on the main actor, `handler` only runs on the
    /// main thread.
    public func bind<Listener: AnyObject>(
        _ listener: Listener, skipInitialValue: Bool = false, isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Listener, Value) -> Void
    ) {
        addListener(listener, skipInitialValue: skipInitialValue, isolation: isolation, handler: handler)
    }

    /// Removes every handler that `listener` bound to this value.
    public func unbind(_ listener: AnyObject) {
        removeListener(listener)
    }
}

/// `listener` as a ``BindingOwner`` whose conformance can be used here, or `nil`.
/// Out of line and unoptimized for the reason given at `BindingSubscriber.conformsHere`:
/// specialized for a type known to conform, `-O` would fold the cast and lose the
/// run-time check of a main-actor conformance's isolation.
@inline(never) @_optimize(none)
func usableOwner(_ listener: AnyObject) -> (any BindingOwner)? {
    listener as? any BindingOwner
}

/// A listener observer's identity, for `unbind(_:)`.
protocol ListenerIdentified: AnyObject {
    var listenerID: ObjectIdentifier { get }
    /// The cancellable kept in the listener's `subscriptions` when it is an owner.
    var ownerHandle: ObjectIdentifier? { get }
    /// Stops the handler at once, including values still queued for the main thread.
    func unbind()
}

/// Holds its listener weakly; once the listener is gone it unregisters itself at the next
/// value.
final class ListenerObserver<Listener: AnyObject, Value>: PropertyObserver<Value>, ListenerIdentified,
    @unchecked Sendable
{
    // `@unchecked Sendable`: `listener` is weak (loaded atomically by the runtime) and
    // never reassigned; `unbound` and `queued` are atomics; `handler`, `listenerID` and
    // `onMainActor` are immutable.
    private weak var listener: Listener?
    let listenerID: ObjectIdentifier
    /// Set once, on the binding's thread, before `bind` returns; read by `unbind(_:)`.
    /// (`@unchecked Sendable` above: written before the observer is shared with another
    /// thread through the channel's lock, never written again.)
    var ownerHandle: ObjectIdentifier?
    private let handler: (Listener, Value) -> Void
    /// The handler is main-actor isolated: it only runs on the main thread.
    private let onMainActor: Bool
    private let unbound = Atomic<Bool>(false)
    /// Values sent to the main queue and not handled yet (see `BindingSubscriber`).
    private let queued = Atomic<Int>(0)

    init(channel: PropertyChannel<Value>, options: KeyValueObservingOptions, listener: Listener,
         onMainActor: Bool, handler: @escaping (Listener, Value) -> Void) {
        self.listener = listener
        listenerID = ObjectIdentifier(listener)
        self.onMainActor = onMainActor
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
