/// A type that offers reactive extensions through `.reactive`, in the style of
/// ReactiveSwift and thoughtbot's Bindings.
///
/// ```swift
/// extension Reactive where Base: Label {
///     var shouting: BindingSink<Base, String> { BindingSink(owner: base) { $0.text = $1.uppercased() } }
/// }
/// ```
public protocol ReactiveExtensionProvider {}

extension ReactiveExtensionProvider {
    /// The reactive extensions of this instance.
    public var reactive: Reactive<Self> { Reactive(self) }

    /// The reactive extensions of this type.
    public static var reactive: Reactive<Self>.Type { Reactive<Self>.self }
}

/// A proxy that carries the reactive extensions of `Base`: extend it with
/// `extension Reactive where Base: MyType { ... }`.
///
/// Through dynamic member lookup, `model.reactive.property` is a publisher for any key
/// path of a ``KeyValueObservable`` model, and `owner.reactive.property` a binding target
/// for any writable key path of a ``BindingOwner``.
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The object or value that the extensions act on.
    public let base: Base

    /// Wraps `base`.
    public init(_ base: Base) { self.base = base }

    /// `base.reactive.property` needs a base that is a `KeyValueObservable` model (for a
    /// publisher) or a `BindingOwner` (for a binding target); see
    /// `Reactive+DynamicMembers.swift`. This overload only exists to say so.
    @available(*, unavailable, message: "reactive.property needs a base that conforms to KeyValueObservable (to publish it) or BindingOwner (to bind to it)")
    public subscript<Value>(dynamicMember keyPath: KeyPath<Base, Value>) -> Never {
        fatalError("unavailable")
    }
}
