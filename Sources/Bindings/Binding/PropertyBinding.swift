// The binding of an observable value to an owner, first-class in the engine: a `<~`
// (or `~>`) whose source is a property publisher (`$property`, `model.reactive.property`,
// `publisher(for:)`, an `ObservableValue`) registers one observer straight on the
// value's channel, as `$property.sink` does, instead of a Combine subscription and a
// subscriber: a value costs one call from code specialized where the binding was made,
// a load of the owner's weak reference, and the store.
//
// Lifetimes are those of every binding (see `BindingSink`): the owner's `subscriptions`
// keeps one handle of the observer, so the binding ends the moment the owner
// deinitialises; the operator returns a second handle, which cancels only when told to,
// so that dropping it ends nothing; whichever ends the binding takes over the other
// handle's reference, so that keeping either handle afterwards keeps nothing alive. When
// the model goes, the channel lets go of the observer (and its closures) at once.
//
// A sink that must run on the main thread (see `BindingDelivery`) runs there through a
// `MainActorDelivery`: at once when the value is sent on the main thread, otherwise
// through the main queue, in order, as `BindingSubscriber` does for other publishers.
// A publisher offers its channel through `Publisher._bindingChannel()`, `nil` unless it
// is one of the property publishers below.

/// Not for use: what a property publisher's `_bindingChannel()` gives a binding: the
/// channel to register on, the value as the publisher read it (for the initial value),
/// and whether to send the initial value.
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
/// directly) with two handles: the owner's (`handle`, kept in the owner's
/// `subscriptions`), which cancels when it is deinitialised, and the maker's
/// (`secondHandle`, returned by the operator), which cancels only when told to. Whichever
/// ends the binding (either handle's `cancel()`, the owner's handle going with the owner,
/// or the model going) takes over the other handle's reference too, so that the
/// observer, and what its closures capture, go at once, whichever handle is kept.
@usableFromInline
final class BindingObserver<Value>: ValueObserver<Value>, @unchecked Sendable {
    // `@unchecked Sendable`: `secondHandle` is guarded by the channel's lock, like
    // `handle` (set before the observer is registered); `onEnd` and `delivery` are
    // written once, before the observer is registered; `onEnd` is read only by
    // `sourceEnded()`, which the channel calls once, and `delivery` (a `Sendable` whose
    // `cancel()` is an atomic store) by `cancelFromHandle()`.

    /// The maker's handle, unretained (see `ChannelObserver.handle` for why it can be
    /// read under the channel's lock while set).
    @exclusivity(unchecked) @usableFromInline var secondHandle: Unmanaged<AnyCancellable>?
    /// The sink's completion, for when the source ends (its model is gone).
    @usableFromInline var onEnd: (() -> Void)?
    /// The main-thread delivery of a main-actor sink, stopped when the binding ends.
    @usableFromInline var delivery: (any StoppableDelivery)?

    override func sourceEnded() {
        onEnd?()
    }

    /// Under the channel's lock: both handles' references (see the type's comment).
    override func takeHandleReferences() -> Int {
        var taken = super.takeHandleReferences()
        if let secondHandle {
            self.secondHandle = nil
            if Self.takeReference(from: secondHandle, to: self) { taken += 1 }
        }
        return taken
    }

    /// Either handle's `cancel()`, or the owner's handle going: the binding ends, and the
    /// other handle's reference is taken over.
    override func cancelFromHandle() {
        cancelled.store(true, ordering: .releasing)
        delivery?.cancel()
        let taken = channel.withLock { takeHandleReferences() }
        if channel.isDerived {
            unregister()
        } else {
            channel.remove(self)
        }
        for _ in 0..<taken { Unmanaged.passUnretained(self).release() }
    }

    /// The maker's handle going ends nothing: it is only forgotten.
    override func handleDeinitialized(_ handle: AnyCancellable) {
        let isMakers = channel.withLock {
            guard secondHandle?.toOpaque() == Unmanaged.passUnretained(handle).toOpaque() else { return false }
            secondHandle = nil
            return true
        }
        if !isMakers { cancelFromHandle() }
    }
}

extension BindingSink {
    /// Binds to `binding`'s channel (see the top of this file), lifting each value with
    /// `transform`; `nil` if the owner is already gone.
    @inlinable
    func bindProperty<Value>(_ binding: _BindingChannel<Value>, _ transform: @escaping (Value) -> Input) -> AnyCancellable? {
        guard let owner = reference.object else { return nil }
        let observer = delivery == .mainActor
            ? mainActorObserver(binding, transform)
            : sendingThreadObserver(binding, transform)
        let unmanaged = Unmanaged.passUnretained(observer)
        let ownersHandle = AnyCancellable(target: consume observer)
        let registered = unmanaged._withUnsafeGuaranteedRef { observer in
            let makersHandle = AnyCancellable(target: observer)
            // Both before it is registered (see `ChannelObserver.handle`).
            observer.handle = Unmanaged.passUnretained(ownersHandle)
            observer.secondHandle = Unmanaged.passUnretained(makersHandle)
            return (observer.registerAsSink(initial: binding.initial, snapshot: binding.snapshot), makersHandle)
        }
        if registered.0 {
            owner.subscriptions.insert(ownersHandle)
        } else {
            unmanaged.takeUnretainedValue().endUnregistered()
        }
        return registered.1
    }

    /// The observer of a sink that runs on the thread that sends each value.
    @inlinable
    func sendingThreadObserver<Value>(
        _ binding: _BindingChannel<Value>, _ transform: @escaping (Value) -> Input
    ) -> BindingObserver<Value> {
        let reference = self.reference
        let receiveValue = self.receiveValue
        let observer = BindingObserver<Value>(
            channel: binding.channel, options: binding.initial ? [.initial, .new] : [.new],
            receiveValue: { value in
                // The owner is alive while the binding is registered, but for the moment
                // its deinit runs on another thread (its `subscriptions` not yet gone).
                if let owner = reference.object { receiveValue(owner, transform(value)) }
            })
        if let receiveCompletion {
            observer.onEnd = { if let owner = reference.object { receiveCompletion(owner) } }
        }
        return observer
    }

    /// The observer of a sink that runs on the main thread only (see `BindingDelivery`):
    /// at once when a value is sent there and nothing sent earlier still waits in the
    /// main queue, otherwise through the main queue, in order, and the completion (the
    /// model gone) after the values. Once the binding is cancelled, nothing queued runs.
    @inlinable
    func mainActorObserver<Value>(
        _ binding: _BindingChannel<Value>, _ transform: @escaping (Value) -> Input
    ) -> BindingObserver<Value> {
        let reference = self.reference
        let receiveValue = self.receiveValue
        let receiveCompletion = self.receiveCompletion
        let delivery = MainActorDelivery<SinkEvent<Input, Never>> { event in
            guard let owner = reference.object else { return }
            switch event {
            case .value(let input): receiveValue(owner, input)
            case .completion: receiveCompletion?(owner)
            }
        }
        let observer = BindingObserver<Value>(
            channel: binding.channel, options: binding.initial ? [.initial, .new] : [.new],
            receiveValue: { value in
                let input = transform(value)
                delivery.deliver(.value(input)) {
                    if let owner = reference.object { receiveValue(owner, input) }
                }
            })
        observer.delivery = delivery
        observer.onEnd = { delivery.deliver(.completion(.finished)) }
        return observer
    }
}

extension Observed.Publisher {
    /// Not for use: the property's channel, for a binding (see `PropertyBinding.swift`).
    @inlinable
    public func _bindingChannel() -> _BindingChannel<Value>? {
        _BindingChannel(channel: channel, snapshot: snapshot, initial: true)
    }

    /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`).
    @inlinable
    public func _fusedSink(_ receiveValue: @escaping (Value) -> Void) -> AnyCancellable? {
        PropertyChannel.sink(channel, initial: true, snapshot: snapshot, receiveValue: receiveValue)
    }
}

extension KeyValueObservingPublisher {
    /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`); `nil`
    /// with `.prior`, whose prior notices send old values too.
    @inlinable
    public func _fusedSink(_ receiveValue: @escaping (Value) -> Void) -> AnyCancellable? {
        guard !options.contains(.prior), let object else { return nil }
        let (channel, snapshot) = ObservationTarget.resolve(object, specialization: specialization)
        return PropertyChannel.sink(
            channel, initial: options.contains(.initial), snapshot: snapshot, receiveValue: receiveValue)
    }

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

    /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`).
    @inlinable
    public func _fusedSink(_ receiveValue: @escaping (Value) -> Void) -> AnyCancellable? {
        publisher._fusedSink(receiveValue)
    }
}

extension ObservableValue {
    /// Not for use: the value's channel, for a binding (see `PropertyBinding.swift`).
    @inlinable
    public func _bindingChannel() -> _BindingChannel<Value>? {
        _BindingChannel(channel: channel, snapshot: nil, initial: true)
    }

    /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`).
    @inlinable
    public func _fusedSink(_ receiveValue: @escaping (Value) -> Void) -> AnyCancellable? {
        PropertyChannel.sink(channel, initial: true, receiveValue: receiveValue)
    }
}
