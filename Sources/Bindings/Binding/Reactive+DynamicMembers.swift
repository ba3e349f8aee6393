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

extension Reactive where Base: BindingOwner {
    /// `owner.reactive.property`: a binding target that sets the value at any writable
    /// key path of the owner.
    ///
    /// ```swift
    /// label.reactive.text <~ person.reactive.fullName
    /// ```
    @inlinable
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Value>) -> BindingSink<Base, Value> {
        BindingSink(owner: base) { owner, value in owner[keyPath: keyPath] = value }
    }
}

extension Reactive where Base: KeyValueObservable & BindingOwner {
    /// On a base that is both a model and an owner, `base.reactive.property` is both a
    /// publisher of the property and a binding target for it.
    ///
    /// ```swift
    /// viewModel.reactive.title <~ input.reactive.text      // as a target
    /// let titles = viewModel.reactive.title                // as a publisher
    /// ```
    @inlinable
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Value>) -> ReactiveProperty<Base, Value> {
        ReactiveProperty(base: base, keyPath: keyPath)
    }
}

/// A property of an object that is both a ``KeyValueObservable`` model and a
/// ``BindingOwner``: a publisher of its values, and a binding target that sets it.
public struct ReactiveProperty<Base: KeyValueObservable & BindingOwner, Value>: Publisher, BindingTargetConvertible {
    /// The kind of values this publisher publishes.
    public typealias Output = Value
    /// This publisher cannot fail.
    public typealias Failure = Never

    @usableFromInline let publisher: KeyValueObservingPublisher<Base, Value>
    /// The sink that sets the property.
    public let bindingSink: BindingSink<Base, Value>

    @inlinable
    init(base: Base, keyPath: ReferenceWritableKeyPath<Base, Value>) {
        publisher = base.publisher(for: keyPath)
        bindingSink = BindingSink(owner: base) { owner, value in owner[keyPath: keyPath] = value }
    }

    /// Attaches `subscriber` to the property's publisher: the current value, then every new one.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        publisher.receive(subscriber: subscriber)
    }
}
