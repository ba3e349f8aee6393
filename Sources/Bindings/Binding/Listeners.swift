import Dispatch
import Synchronization

/// The listener API: `bind(_:skipInitialValue:handler:)` and `unbind(_:)` on every
/// observed property's projection and on ``ObservableValue``.
///
/// ```swift
/// person.$firstName.bind(label, skipInitialValue: false) { label, name in label.text = name }
/// person.$firstName.unbind(label)
/// ```
/// A listener is held weakly and dropped once released (at the next value: a listener is
/// any object, and has no storage that could end the binding when it goes); its handlers
/// run in the order they were bound, on the thread that set the value. A handler bound
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
        observer.register()
    }

    func removeListener(_ listener: AnyObject) {
        let id = ObjectIdentifier(listener)
        for case let observer as any ListenerIdentified in listenerChannel.snapshot() where observer.listenerID == id {
            observer.unbind()
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

/// A listener observer's identity, for `unbind(_:)`.
protocol ListenerIdentified: AnyObject {
    var listenerID: ObjectIdentifier { get }
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
