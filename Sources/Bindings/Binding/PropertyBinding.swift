/// The binding of an observable value to an owner, first-class in the engine: a `<~`
/// (or `~>`, or `bind(to:)`) whose source is a property publisher (`$property`,
/// `model.reactive.property`, `publisher(for:)`, an ``ObservableValue``) registers one
/// observer straight on the value's channel, as `$property.sink` does, instead of a
/// Combine subscription and a subscriber: a value costs one call from code specialized
/// where the binding was made, a load of the owner's weak reference, and the store.
///
/// Lifetimes are those of every binding (see ``BindingSink``): the owner's
/// `subscriptions` keeps the observer's `AnyCancellable`, so the binding ends the moment
/// the owner deinitialises; what the operator returns is a second cancellable that
/// reaches the observer weakly and that the observer keeps, so that dropping it ends
/// nothing and keeping it keeps nothing alive; when the model goes, the channel lets go
/// of the observer (and its closures) at once.
///
/// Only for sinks that run on the sending thread; a sink that must run on the main
/// thread takes the general path (``BindingSubscriber``), which hops there. A publisher
/// offers its channel through `Publisher._bindingChannel()`, `nil` unless it is one of
/// the property publishers below.
/// Not for use: what a property publisher's `_bindingChannel()` gives a binding (see
/// `PropertyBinding.swift`): the channel to register on, the value as the publisher read
/// it (for the initial value), and whether to send the initial value.
public struct _BindingChannel<Value> {
    @usableFromInline let channel: PropertyChannel<Value>
    @usableFromInline let snapshot: PropertyChannel<Value>.Snapshot?
    @usableFromInline let initial: Bool

    @inlinable
    init(channel: PropertyChannel<Value>, snapshot: PropertyChannel<Value>.Snapshot?, initial: Bool) {
        self.channel = channel
        self.snapshot = snapshot
        self.initial = initial
    }
}

/// The observer of a binding: a ``ValueObserver`` (the channel calls its closure
/// directly) that also keeps the cancellable its operator returned (see
/// the top of this file).
@usableFromInline
final class BindingObserver<Value>: ValueObserver<Value>, @unchecked Sendable {
    // `@unchecked Sendable`: `callerHandle` and `onEnd` are written once, before the
    // observer is registered (shared); `callerHandle` is never read, `onEnd` only by
    // `sourceEnded()`, which the channel calls once.

    /// The cancellable returned to the binding's maker; it reaches this observer weakly.
    @usableFromInline var callerHandle: AnyCancellable?
    /// The sink's completion, for when the source ends (its model is gone).
    @usableFromInline var onEnd: (() -> Void)?

    override func sourceEnded() {
        onEnd?()
    }

    /// Makes and keeps the cancellable for the binding's maker.
    @usableFromInline
    func makeCallerHandle() -> AnyCancellable {
        let handle = AnyCancellable { [weak self] in self?.cancelFromCaller() }
        callerHandle = handle
        return handle
    }

    /// The maker cancelled: the binding ends; the owner's cancellable, still in its
    /// `subscriptions`, releases the observer with the owner.
    private func cancelFromCaller() {
        if channel.isDerived {
            unregister()
        } else {
            cancelled.store(true, ordering: .releasing)
            channel.remove(self)
        }
    }
}

extension BindingSink {
    /// Binds to `binding`'s channel (see the top of this file), lifting each value with
    /// `transform`; `nil` if the fast path does not apply to this sink.
    @inlinable
    func bindProperty<Value>(_ binding: _BindingChannel<Value>, _ transform: @escaping (Value) -> Input) -> AnyCancellable? {
        guard case .sendingThread = delivery, let owner = reference.object else { return nil }
        let reference = self.reference
        let receiveValue = self.receiveValue
        let observer = BindingObserver<Value>(
            channel: binding.channel, options: KeyValueObservingOptions(rawValue: binding.initial ? 0x05 : 0x01),
            receiveValue: { value in
                // The owner is alive while the binding is registered, but for the moment
                // its deinit runs on another thread (its `subscriptions` not yet gone).
                if let owner = reference.object { receiveValue(owner, transform(value)) }
            })
        if let receiveCompletion {
            observer.onEnd = { if let owner = reference.object { receiveCompletion(owner) } }
        }
        let callerHandle = observer.makeCallerHandle()
        let unmanaged = Unmanaged.passUnretained(observer)
        let ownersHandle = AnyCancellable(target: consume observer)
        let registered = unmanaged._withUnsafeGuaranteedRef { observer in
            observer.handle = Unmanaged.passUnretained(ownersHandle)   // before it is registered
            return observer.registerAsSink(initial: binding.initial, snapshot: binding.snapshot)
        }
        if registered {
            owner.subscriptions.insert(ownersHandle)
        } else {
            unmanaged.takeUnretainedValue().endUnregistered()
        }
        return callerHandle
    }
}

extension Observed.Publisher {
    /// Not for use: the property's channel, for a binding (see `PropertyBinding.swift`).
    @inlinable
    public func _bindingChannel() -> _BindingChannel<Value>? {
        _BindingChannel(channel: channel, snapshot: snapshot, initial: true)
    }
}

extension KeyValueObservingPublisher {
    /// Not for use: the key path's channel, for a binding (see `PropertyBinding.swift`).
    @inlinable
    public func _bindingChannel() -> _BindingChannel<Value>? {
        guard !options.contains(.prior), let object else { return nil }
        let (channel, snapshot) = ObservationTarget.resolve(object, specialization: specialization)
        return _BindingChannel(channel: channel, snapshot: snapshot, initial: options.contains(.initial))
    }
}

extension ReactiveProperty {
    /// Not for use: the property's channel, for a binding (see `PropertyBinding.swift`).
    @inlinable
    public func _bindingChannel() -> _BindingChannel<Value>? { publisher._bindingChannel() }
}

extension ObservableValue {
    /// Not for use: the value's channel, for a binding (see `PropertyBinding.swift`).
    @inlinable
    public func _bindingChannel() -> _BindingChannel<Value>? {
        _BindingChannel(channel: channel, snapshot: nil, initial: true)
    }
}
