/// An object that bindings can target, and that owns them: a binding made with `<~`,
/// `~>` or `bind(to:)` is stored in the owner's ``subscriptions`` and ends the moment the
/// owner deinitialises.
///
/// On Linux there are no associated objects, so an owner declares the storage:
///
/// ```swift
/// final class Label: BindingOwner {
///     var text: String?
///     var subscriptions = Set<AnyCancellable>()
/// }
/// label.reactive.text <~ person.reactive.fullName
/// ```
///
/// A main-actor owner conforms with an isolated conformance; its setters then only ever
/// run on the main thread:
///
/// ```swift
/// @MainActor final class StatusLine { var text = ""; var subscriptions = Set<AnyCancellable>() }
/// extension StatusLine: @MainActor BindingOwner {}
/// ```
public protocol BindingOwner: AnyObject, ReactiveExtensionProvider {
    /// The bindings (and any other cancellables) that live as long as this object.
    var subscriptions: Set<AnyCancellable> { get set }
}
