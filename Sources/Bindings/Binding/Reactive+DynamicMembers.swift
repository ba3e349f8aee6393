extension Reactive where Base: KeyValueObservable {
    /// `model.reactive.property`: a publisher of the value at any key path of the model
    /// (the same as `publisher(for:)` with its default options: current value first).
    ///
    /// ```swift
    /// let c = person.reactive.fullName.sink { print($0) }
    /// ```
    ///
    /// Inlinable, as the subscripts below: made where the types are known, the publisher's
    /// changes and the sink's writes run specialized code, with the key path applied as
    /// a direct property access when it is written out.
    @inlinable
    public subscript<Value>(dynamicMember keyPath: KeyPath<Base, Value>) -> KeyValueObservingPublisher<Base, Value> {
        base.publisher(for: keyPath)
    }
}

extension Reactive where Base: BindingOwner & SendableMetatype {
    /// `owner.reactive.property`: a binding target that sets the value at any writable
    /// key path of the owner, on the thread that sends each value.
    ///
    /// ```swift
    /// label.reactive.text <~ person.reactive.fullName
    /// ```
    ///
    /// The compiler picks this subscript for owners whose conformance to ``BindingOwner``
    /// is nonisolated: an isolated conformance cannot satisfy `SendableMetatype` (SE-0470).
    @inlinable
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Value>) -> BindingSink<Base, Value> {
        BindingSink(
            owner: base, delivery: .sendingThread,
            receiveValue: { owner, value in owner[keyPath: keyPath] = value }, receiveCompletion: nil)
    }
}

extension Reactive where Base: BindingOwner {
    /// `owner.reactive.property` for an owner whose conformance to ``BindingOwner`` may be
    /// isolated: a main-actor owner (`extension StatusLine: @MainActor BindingOwner {}`),
    /// or a generic owner type.
    ///
    /// ```swift
    /// status.reactive.text <~ model.reactive.status     // on the main actor
    /// ```
    ///
    /// Made on the main thread (where a main-actor conformance can be used), the target
    /// only ever sets the property on the main thread: synchronously when the value is
    /// sent there, otherwise through the main queue, in order. Made on another thread, it
    /// sets it on the thread that sends each value.
    @inlinable
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Value>) -> BindingSink<Base, Value> {
        BindingSink(
            owner: base, delivery: .forOwnerOfUnknownIsolation(nil),
            receiveValue: { owner, value in owner[keyPath: keyPath] = value }, receiveCompletion: nil)
    }
}

extension Reactive where Base: KeyValueObservable & BindingOwner & SendableMetatype {
    /// On a base that is both a model and an owner, `base.reactive.property` is both a
    /// publisher of the property and a binding target for it.
    ///
    /// ```swift
    /// viewModel.reactive.title <~ input.reactive.text      // as a target
    /// let titles = viewModel.reactive.title                // as a publisher
    /// ```
    ///
    /// As a target it sets the property on the thread that sends each value (the owner's
    /// conformance is nonisolated: an isolated one cannot satisfy `SendableMetatype`).
    @inlinable
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Value>) -> ReactiveProperty<Base, Value> {
        ReactiveProperty(base: base, keyPath: keyPath, delivery: .sendingThread)
    }
}

extension Reactive where Base: KeyValueObservable & BindingOwner {
    /// `base.reactive.property` for a model and owner whose conformance to
    /// ``BindingOwner`` may be isolated (a main-actor view model, or a generic type): a
    /// publisher of the property and a binding target for it.
    ///
    /// As a target made on the main thread, it only ever sets the property on the main
    /// thread; made on another thread, on the thread that sends each value.
    @inlinable
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Value>) -> ReactiveProperty<Base, Value> {
        ReactiveProperty(base: base, keyPath: keyPath, delivery: .forOwnerOfUnknownIsolation(nil))
    }
}

/// A property of an object that is both a ``KeyValueObservable`` model and a
/// ``BindingOwner``: a publisher of its values, and a binding target that sets it.
///
/// A member of the value continues the key path, as with
/// ``KeyValueObservingPublisher/subscript(dynamicMember:)``: `view.reactive.model.title`
/// publishes `\.model.title` of `view`.
@dynamicMemberLookup
public struct ReactiveProperty<Base: KeyValueObservable & BindingOwner, Value>: Publisher, BindingTargetConvertible {
    /// The kind of values this publisher publishes.
    public typealias Output = Value
    /// This publisher cannot fail.
    public typealias Failure = Never

    @usableFromInline let publisher: KeyValueObservingPublisher<Base, Value>
    /// The sink that sets the property.
    public let bindingSink: BindingSink<Base, Value>

    /// The publisher and the sink share one closure that holds the key path (see
    /// ``DerivedSpecialization/init(writable:)``): a key path written out at the call site
    /// is then compiled into property reads and writes.
    @inlinable
    init(base: Base, keyPath: ReferenceWritableKeyPath<Base, Value>, delivery: BindingDelivery) {
        let specialization = DerivedSpecialization(writable: keyPath)
        publisher = KeyValueObservingPublisher(
            reference: WeakReference(base), specialization: specialization, options: [.initial, .new])
        bindingSink = BindingSink(
            owner: base, delivery: delivery,
            receiveValue: { owner, value in specialization.write(owner, value) }, receiveCompletion: nil)
    }

    /// Attaches `subscriber` to the property's publisher: the current value, then every new one.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        publisher.receive(subscriber: subscriber)
    }

    /// The publisher of the key path that continues this property's with `member` (see
    /// ``KeyValueObservingPublisher/subscript(dynamicMember:)``).
    @inlinable
    public subscript<Member>(dynamicMember member: KeyPath<Value, Member>) -> KeyValueObservingPublisher<Base, Member> {
        publisher[dynamicMember: member]
    }
}
