/// `<~` binds at a precedence above assignment and below the ternary operator, so that
/// `label.reactive.text <~ a ?? b` binds the result of `a ?? b`.
precedencegroup BindingPrecedence {
    associativity: right
    higherThan: AssignmentPrecedence
    lowerThan: TernaryPrecedence
}

/// The binding operator: `target <~ source`.
infix operator <~ : BindingPrecedence

// `~>` is declared by the standard library; redeclaring it in another precedence group
// would clash with other modules that use it, so only functions are added here.

/// Binds `source` to `target`: every value of `source` is delivered to the target's
/// owner, from now until the owner deinitialises (at once, not at the next value) or the
/// returned cancellable is cancelled.
///
/// ```swift
/// label.reactive.text <~ person.reactive.fullName
/// ```
/// Only publishers that cannot fail can be bound. The binding is stored in the owner's
/// `subscriptions`; binding to an owner that is already gone does nothing.
///
/// Inlinable, so that a binding from a property publisher (`$property`,
/// `model.reactive.property`, `publisher(for:)`, an `ObservableValue`) is made where the
/// types are known and registers straight on the property's channel (see
/// `PropertyBinding.swift`).
@inlinable
@discardableResult
public func <~ <Target: BindingTargetConvertible, Source: Publisher>(target: Target, source: Source) -> AnyCancellable
where Source.Output == Target.Input, Source.Failure == Never {
    bind(source, to: target.bindingSink)
}

/// Binds a publisher of `T` to a target of `T?`, lifting each value.
///
/// ```swift
/// label.reactive.text <~ person.reactive.fullName   // String into String?
/// ```
@inlinable
@discardableResult
public func <~ <Target: BindingTargetConvertible, Source: Publisher>(target: Target, source: Source) -> AnyCancellable
where Target.Input == Source.Output?, Source.Failure == Never {
    bindLifted(source, to: target.bindingSink)
}

/// Binds `source` to `target`, written left to right: the same as `target <~ source`.
///
/// ```swift
/// person.reactive.fullName ~> label.reactive.text
/// ```
@inlinable
@discardableResult
public func ~> <Source: Publisher, Target: BindingTargetConvertible>(source: Source, target: Target) -> AnyCancellable
where Source.Output == Target.Input, Source.Failure == Never {
    bind(source, to: target.bindingSink)
}

/// Binds a publisher of `T` to a target of `T?`, written left to right.
@inlinable
@discardableResult
public func ~> <Source: Publisher, Target: BindingTargetConvertible>(source: Source, target: Target) -> AnyCancellable
where Target.Input == Source.Output?, Source.Failure == Never {
    bindLifted(source, to: target.bindingSink)
}

/// What `<~` and `~>` do: straight on the channel for a property publisher, through a
/// fused sink for a source that has one (see `FusedBinding.swift`), otherwise through a
/// subscriber.
@inlinable
func bind<Owner: BindingOwner, Source: Publisher>(_ source: Source, to sink: BindingSink<Owner, Source.Output>) -> AnyCancellable
where Source.Failure == Never {
    if let binding = source._bindingChannel(), let bound = sink.bindProperty(binding, { $0 }) { return bound }
    if let bound = sink.bindFused(source) { return bound }
    return sink.bind(source)
}

/// The same for a target of `T?` and a source of `T`.
@inlinable
func bindLifted<Owner: BindingOwner, Source: Publisher>(_ source: Source, to sink: BindingSink<Owner, Source.Output?>) -> AnyCancellable
where Source.Failure == Never {
    if let binding = source._bindingChannel(), let bound = sink.bindProperty(binding, { Optional($0) }) {
        return bound
    }
    let lifted = source.map { Optional($0) }
    if let bound = sink.bindFused(lifted) { return bound }
    return sink.bind(lifted)
}
