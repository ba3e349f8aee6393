// Two-way bindings: `model.reactive.name <~> field.reactive.text`, and
// `model.reactive.age.bind(twoWay: field.reactive.text, forward:, backward:)` to convert.
//
// The left side is a writable property of a `KeyValueObservable` model: a
// `ReactiveProperty` when the model is also a `BindingOwner`, otherwise the
// `WritableModelProperty` that `model.reactive.name` gives where a two-way binding asks
// for one (see the subscript below). The right side is a `ReactiveProperty`: a writable,
// observable property of an object that is both a model and an owner, which stores the
// binding in its `subscriptions`.
//
// Each direction is made on the public paths of the engine: forward, a binding of the
// left side's publisher to a `BindingSink` of the right side's owner, with the delivery
// of the right side's own sink (so that a main-actor owner's property is only set on the
// main thread, as with `<~`), stored in the right side's `subscriptions`; backward, a
// `sink` of the right side's publisher that writes the left side. `TwoWayLink` holds the
// no-echo guard and ends both.

/// The two-way binding operator: `left <~> right`.
///
/// In the precedence group of `<~`, above assignment and below the ternary operator.
infix operator <~> : BindingPrecedence

extension Reactive where Base: KeyValueObservable {
    /// `model.reactive.property` for a writable property of a model that is not a
    /// ``BindingOwner``, where a two-way binding needs to write it:
    ///
    /// ```swift
    /// person.reactive.firstName <~> field.reactive.text
    /// person.reactive.age.bind(twoWay: field.reactive.text, forward: { String($0) }, backward: { $0.flatMap { Int($0) } })
    /// ```
    ///
    /// Everywhere else `model.reactive.property` is still the
    /// ``KeyValueObservingPublisher`` of the key path (and, on a model that is also an
    /// owner, the ``ReactiveProperty``): this overload is disfavoured, so the compiler
    /// only picks it when those do not fit the expression. A publisher offers no two-way
    /// binding: it only knows its key path as a read-only `KeyPath`, and recovering a
    /// writable one from it would be a cast that can fail when the program runs. Here the
    /// writable key path is the one the compiler made, so the left side's writability is
    /// checked when the binding is compiled: a read-only property
    /// (`person.reactive.fullName <~> ...`) does not compile.
    @_disfavoredOverload
    @inlinable
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Value>) -> WritableModelProperty<Base, Value> {
        WritableModelProperty(model: base, keyPath: keyPath)
    }
}

/// A writable property of a ``KeyValueObservable`` model that is not a ``BindingOwner``:
/// the left side of a two-way binding, which observes it and writes it.
///
/// `model.reactive.property` gives one where a two-way binding asks for it; anywhere
/// else, the same expression is the property's ``KeyValueObservingPublisher``.
///
/// ```swift
/// person.reactive.firstName <~> field.reactive.text
/// ```
///
/// It holds the model weakly. A member of the value continues the key path, as with the
/// publisher: `person.reactive.address.city <~> field.reactive.text` binds
/// `\.address.city` of `person`, following `address` when it is replaced.
@dynamicMemberLookup
public struct WritableModelProperty<Model: KeyValueObservable, Value> {
    /// The model, or `nil` once it is gone.
    public var model: Model? { reference.object }
    /// The property's key path.
    @inlinable
    public var keyPath: ReferenceWritableKeyPath<Model, Value> {
        // Made from it by `init(writable:)`: the cast always succeeds.
        specialization.keyPath as! ReferenceWritableKeyPath<Model, Value>
    }
    @usableFromInline let reference: WeakReference<Model>
    /// Holds the key path, for the publisher's reads and the binding's writes (see
    /// ``DerivedSpecialization/init(writable:)``).
    @usableFromInline let specialization: DerivedSpecialization<Model, Value>

    /// The property at `keyPath` of `model`.
    @inlinable
    public init(model: Model, keyPath: ReferenceWritableKeyPath<Model, Value>) {
        reference = WeakReference(model)
        specialization = DerivedSpecialization(writable: keyPath)
    }

    @inlinable
    init(reference: WeakReference<Model>, keyPath: ReferenceWritableKeyPath<Model, Value>) {
        self.reference = reference
        specialization = DerivedSpecialization(writable: keyPath)
    }

    /// The writable property that continues this one's key path with `member`, on the
    /// same model: `person.reactive.address.city` is `\.address.city` of `person`.
    ///
    /// ```swift
    /// person.reactive.address.city <~> field.reactive.text
    /// ```
    @inlinable
    public subscript<Member>(dynamicMember member: WritableKeyPath<Value, Member>) -> WritableModelProperty<Model, Member> {
        WritableModelProperty<Model, Member>(reference: reference, keyPath: keyPath.appending(path: member))
    }

    /// The publisher of the property: its current value, then each new one.
    ///
    /// ```swift
    /// let names: KeyValueObservingPublisher<Person, String> = person.reactive.firstName
    /// ```
    public var publisher: KeyValueObservingPublisher<Model, Value> {
        KeyValueObservingPublisher(reference: reference, specialization: specialization, options: [.initial, .new])
    }
}

extension WritableModelProperty {
    /// Binds this property and `right` both ways, converting: `right` first takes this
    /// property's value, through `forward`; then each change of this property is written
    /// to `right` through `forward`, and each change of `right` to this property through
    /// `backward`, where `nil` leaves this property as it is.
    ///
    /// ```swift
    /// person.reactive.age.bind(twoWay: field.reactive.text, forward: { String($0) }, backward: { $0.flatMap { Int($0) } })
    /// // field.text == "36"; field.text = "37" sets person.age to 37; field.text = "x" leaves it at 37
    /// ```
    ///
    /// Each change is written to the other side exactly once, with no echo: writing one
    /// side because the other changed does not write the other back. After any sequence of
    /// changes, including changes made inside observers of either side and in batches
    /// (`batchChanges`, where several sets of one side make one notification), both sides
    /// end equal, with the value of the last change (in a batch that changed both sides,
    /// the side changed last is written to the other when the batch ends).
    ///
    /// Threads: `right` is written as `<~` writes it (on the thread that changed this
    /// property, or, for a main-actor owner, on the main thread only); this property is
    /// written on the thread that changed `right`. The closures run where the side they
    /// write is written.
    ///
    /// Lifetime: the binding holds neither side, is stored in `right`'s `subscriptions`,
    /// and ends at once when either side deinitialises (for a main-actor `right`, when
    /// this property's model goes off the main thread: once the main queue hears of it,
    /// writing nothing meanwhile), when `right`'s `subscriptions` are emptied, or when the
    /// returned cancellable is cancelled (dropping it ends nothing). Binding a side that is
    /// already gone does nothing.
    @inlinable
    @discardableResult
    public func bind<Right: KeyValueObservable & BindingOwner, RightValue>(
        twoWay right: ReactiveProperty<Right, RightValue>,
        forward: @escaping (Value) -> RightValue,
        backward: @escaping (RightValue) -> Value?
    ) -> AnyCancellable {
        let specialization = specialization
        return TwoWayBinding.make(
            left: publisher, leftDelivery: .sendingThread, writeLeft: { specialization.write($0, $1) },
            right: right, forward: forward, backward: backward)
    }
}

extension ReactiveProperty {
    /// Binds this property and `right` both ways, converting: `right` first takes this
    /// property's value, through `forward`; then each change of this property is written
    /// to `right` through `forward`, and each change of `right` to this property through
    /// `backward`, where `nil` leaves this property as it is.
    ///
    /// ```swift
    /// viewModel.reactive.count.bind(twoWay: field.reactive.text, forward: { String($0) }, backward: { $0.flatMap { Int($0) } })
    /// ```
    ///
    /// The same as ``WritableModelProperty/bind(twoWay:forward:backward:)``, for a left
    /// side that is also a ``BindingOwner``: it is written as `<~` writes it (for a
    /// main-actor owner, on the main thread only). The binding is stored in `right`'s
    /// `subscriptions`.
    @inlinable
    @discardableResult
    public func bind<Right: KeyValueObservable & BindingOwner, RightValue>(
        twoWay right: ReactiveProperty<Right, RightValue>,
        forward: @escaping (Value) -> RightValue,
        backward: @escaping (RightValue) -> Value?
    ) -> AnyCancellable {
        TwoWayBinding.make(
            left: publisher, leftDelivery: bindingSink.delivery, writeLeft: bindingSink.receiveValue,
            right: right, forward: forward, backward: backward)
    }
}

extension KeyValueObservingPublisher {
    /// Not available: the publisher of a read-only key path cannot be written back. A
    /// two-way binding needs a writable property on the left (`model.reactive.name`, with
    /// `name` a `var`).
    @available(*, unavailable, message: "a two-way binding writes its left side: bind a writable property (a 'var' of the model), not a read-only key path")
    public func bind<Right: KeyValueObservable & BindingOwner, RightValue>(
        twoWay right: ReactiveProperty<Right, RightValue>,
        forward: @escaping (Value) -> RightValue,
        backward: @escaping (RightValue) -> Value?
    ) -> AnyCancellable {
        fatalError("unavailable")
    }
}

/// Binds `left` and `right` both ways: `right` first takes `left`'s value, then each
/// change of either side is written to the other exactly once, with no echo.
///
/// ```swift
/// person.reactive.firstName <~> form.reactive.firstName
/// ```
///
/// See ``WritableModelProperty/bind(twoWay:forward:backward:)`` for threads and
/// lifetime: the binding is stored in `right`'s `subscriptions` and ends when either side
/// deinitialises.
@inlinable
@discardableResult
public func <~> <Left: KeyValueObservable, Right: KeyValueObservable & BindingOwner, Value>(
    left: WritableModelProperty<Left, Value>, right: ReactiveProperty<Right, Value>
) -> AnyCancellable {
    left.bind(twoWay: right, forward: { $0 }, backward: { $0 })
}

/// Binds `left` and an optional `right` both ways, as `<~` lifts `T` into `T?`: `right`
/// takes each value of `left`; a `nil` written to `right` leaves `left` as it is.
///
/// ```swift
/// person.reactive.firstName <~> field.reactive.text    // String and String?
/// field.text = nil                                     // person.firstName unchanged
/// ```
@inlinable
@discardableResult
public func <~> <Left: KeyValueObservable, Right: KeyValueObservable & BindingOwner, Value>(
    left: WritableModelProperty<Left, Value>, right: ReactiveProperty<Right, Value?>
) -> AnyCancellable {
    left.bind(twoWay: right, forward: { $0 }, backward: { $0 })
}

/// Binds `left`, a property of a model that is also a ``BindingOwner``, and `right` both
/// ways: `right` first takes `left`'s value, then each change of either side is written
/// to the other exactly once, with no echo.
///
/// ```swift
/// viewModel.reactive.title <~> form.reactive.title
/// ```
@inlinable
@discardableResult
public func <~> <Left: KeyValueObservable & BindingOwner, Right: KeyValueObservable & BindingOwner, Value>(
    left: ReactiveProperty<Left, Value>, right: ReactiveProperty<Right, Value>
) -> AnyCancellable {
    left.bind(twoWay: right, forward: { $0 }, backward: { $0 })
}

/// Binds `left`, a property of a model that is also a ``BindingOwner``, and an optional
/// `right` both ways, lifting each value of `left`; a `nil` written to `right` leaves
/// `left` as it is.
///
/// ```swift
/// viewModel.reactive.title <~> field.reactive.text     // String and String?
/// ```
@inlinable
@discardableResult
public func <~> <Left: KeyValueObservable & BindingOwner, Right: KeyValueObservable & BindingOwner, Value>(
    left: ReactiveProperty<Left, Value>, right: ReactiveProperty<Right, Value?>
) -> AnyCancellable {
    left.bind(twoWay: right, forward: { $0 }, backward: { $0 })
}

/// What every two-way binding does (see the top of this file).
///
/// Inlinable, with the entry points: made where the sides' types are known, the
/// closures that each change runs are compiled for them (as generic code, they looked up
/// the metadata of `Optional<Value>` at each change).
@usableFromInline
enum TwoWayBinding {
    /// Binds `left` (a publisher with `.initial`, written by `writeLeft` with
    /// `leftDelivery`) and `right` both ways.
    @inlinable
    static func make<LeftModel: KeyValueObservable, LeftValue, Right: KeyValueObservable & BindingOwner, RightValue>(
        left: KeyValueObservingPublisher<LeftModel, LeftValue>,
        leftDelivery: BindingDelivery,
        writeLeft: @escaping (LeftModel, LeftValue) -> Void,
        right: ReactiveProperty<Right, RightValue>,
        forward: @escaping (LeftValue) -> RightValue,
        backward: @escaping (RightValue) -> LeftValue?
    ) -> AnyCancellable {
        guard let leftModel = left.object, let rightOwner = right.bindingSink.owner else {
            return AnyCancellable.unchecked({})
        }
        if leftModel === rightOwner, left.keyPath as AnyKeyPath == right.publisher.keyPath as AnyKeyPath {
            fatalError(
                "Bindings: \(left.keyPath) is bound two ways to itself; bind it to another property, or to another object's")
        }
        // The two sides' channels, resolved once: each direction subscribes to one, and
        // the link looks at their batch entries (see `TwoWayLink.write(_:_:)`).
        let leftChannel = left._bindingChannel()
        let rightChanges = KeyValueObservingPublisher<Right, RightValue>(
            reference: right.publisher.reference, keyPath: right.publisher.keyPath, options: [.new])
        let rightChannel = rightChanges._bindingChannel()
        let link = TwoWayLink(
            left: TwoWayLink.laterChange(of: leftChannel?.channel), right: TwoWayLink.laterChange(of: rightChannel?.channel))
        let leftReference = left.reference

        // Writes the left side: on the sending thread, or on the main thread for a
        // main-actor owner (in order, through the main queue when sent elsewhere), where
        // `backward` runs too. The write is counted just before it is made.
        let setLeft: (TwoWayLink, RightValue) -> Void = { link, value in
            guard !link.hasEnded, let model = leftReference.object, let converted = backward(value) else { return }
            link.write(.left) { writeLeft(model, converted) }
        }

        // Backward, registered first so that it hears the echo of the initial write: each
        // change of the right side that is not the binding's own write. The link is
        // loaded once per change (a weak load and a slow release, about 20 ns each time),
        // from a `WeakReference`, not a `[weak link]` capture (see there).
        let weakLink = WeakReference(link)
        var leftDeliveryToStop: (any StoppableDelivery)?
        let backward: (RightValue) -> Void
        if leftDelivery == .mainActor {
            let (delivery, deliver) = MainActorDelivery<RightValue>.make { value in
                if let link = weakLink.object { setLeft(link, value) }
            }
            leftDeliveryToStop = delivery
            backward = { value in
                guard let link = weakLink.object, !link.hasEnded, !link.isEcho(.right) else { return }
                deliver(value)
            }
        } else {
            backward = { value in
                guard let link = weakLink.object, !link.hasEnded, !link.isEcho(.right) else { return }
                setLeft(link, value)
            }
        }
        let backwardHandle = rightChannel.map {
            PropertyChannel.sink($0.channel, initial: false, snapshot: $0.snapshot, receiveValue: backward)
        } ?? rightChanges.sink(isolation: nil, receiveValue: backward)
        link.attach(backward: backwardHandle, leftDelivery: leftDeliveryToStop)

        // Forward: the left side's values, the current one first, into the right side,
        // through a sink with the right side's own delivery, stored in its owner.
        let rightSink = right.bindingSink
        let sink = BindingSink<Right, LeftValue>(
            owner: rightOwner, delivery: rightSink.delivery,
            receiveValue: { owner, value in
                guard !link.hasEnded, !link.isEcho(.left) else { return }
                let converted = forward(value)
                link.write(.right) { rightSink.receiveValue(owner, converted) }
            },
            receiveCompletion: { _ in link.end() })
        let forwardHandle: AnyCancellable
        if let channel = leftChannel, let bound = sink.bindProperty(channel, { $0 }) {
            forwardHandle = bound
        } else {
            forwardHandle = sink.bind(left)
        }
        link.attach(forward: forwardHandle)
        return AnyCancellable(target: TwoWayHandle(link))
    }
}
