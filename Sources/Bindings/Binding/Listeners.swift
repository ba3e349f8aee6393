/// The listener API: `bind(_:skipInitialValue:handler:)` and `unbind(_:)` on every
/// observed property's projection and on ``ObservableValue``.
///
/// ```swift
/// person.$firstName.bind(label, skipInitialValue: false) { label, name in label.text = name }
/// person.$firstName.unbind(label)
/// ```
/// A listener is held weakly and dropped once released; its handlers run in the order
/// they were bound, on the thread that set the value.
protocol ListenerChannelProvider {
    associatedtype ListenedValue
    var listenerChannel: PropertyChannel<ListenedValue> { get }
}

extension ListenerChannelProvider {
    func addListener<Listener: AnyObject>(
        _ listener: Listener, skipInitialValue: Bool, handler: @escaping (Listener, ListenedValue) -> Void
    ) {
        let observer = ListenerObserver(
            channel: listenerChannel, options: skipInitialValue ? [.new] : [.initial, .new],
            listener: listener, handler: handler)
        observer.register()
    }

    func removeListener(_ listener: AnyObject) {
        let id = ObjectIdentifier(listener)
        for case let observer as any ListenerIdentified in listenerChannel.snapshot() where observer.listenerID == id {
            observer.unregister()
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
    public func bind<Listener: AnyObject>(
        _ listener: Listener, skipInitialValue: Bool = false, handler: @escaping (Listener, Value) -> Void
    ) {
        addListener(listener, skipInitialValue: skipInitialValue, handler: handler)
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
    public func bind<Listener: AnyObject>(
        _ listener: Listener, skipInitialValue: Bool = false, handler: @escaping (Listener, Value) -> Void
    ) {
        addListener(listener, skipInitialValue: skipInitialValue, handler: handler)
    }

    /// Removes every handler that `listener` bound to this value.
    public func unbind(_ listener: AnyObject) {
        removeListener(listener)
    }
}

/// A listener observer's identity, for `unbind(_:)`.
protocol ListenerIdentified: AnyObject {
    var listenerID: ObjectIdentifier { get }
    func unregister()
}

/// Holds its listener weakly; once the listener is gone it unregisters itself at the next
/// value.
final class ListenerObserver<Listener: AnyObject, Value>: PropertyObserver<Value>, ListenerIdentified,
    @unchecked Sendable
{
    // `@unchecked Sendable`: `listener` is weak (loaded atomically by the runtime) and
    // never reassigned; `handler` and `listenerID` are immutable.
    private weak var listener: Listener?
    let listenerID: ObjectIdentifier
    private let handler: (Listener, Value) -> Void

    init(channel: PropertyChannel<Value>, options: KeyValueObservingOptions, listener: Listener,
         handler: @escaping (Listener, Value) -> Void) {
        self.listener = listener
        listenerID = ObjectIdentifier(listener)
        self.handler = handler
        super.init(channel: channel, options: options)
    }

    override func receive(_ event: PropertyEvent<Value>) {
        guard let listener else {
            unregister()
            return
        }
        if !event.isPrior, let value = event.new { handler(listener, value) }
    }
}
