// A binding whose source offers a fused sink (`Publisher._fusedSink`): a subject, or a
// `map`, `filter` or `compactMap` chain on a property or a subject. As `sink` does for
// them, the binding registers one closure on the source's channel, compiled where the
// binding is made, instead of a Combine subscription and a `BindingSubscriber` (whose
// generic code copied its sink, a weak reference and two closures, for each value).
//
// Only for a sink that runs on the sending thread and has no completion (every target
// of `<~` but a main-actor owner's and a custom `BindingSink` with a completion); the
// others keep `BindingSubscriber`, which delivers on the main thread in order and passes
// the completion on.

/// The binding: the fused sink's cancellable, which the owner's handle (in its
/// `subscriptions`) cancels when it is cancelled or deinitialised, and the maker's
/// handle, kept here so that dropping the one `<~` returned ends nothing.
@usableFromInline
final class FusedBinding: CancellationTarget, @unchecked Sendable {
    // `@unchecked Sendable`: `subscription` is a `let` of a thread-safe cancellable;
    // `makersHandle` is written once, before the binding is shared, and never read.

    /// The fused sink's cancellable.
    @usableFromInline let subscription: AnyCancellable
    /// The cancellable the binding operator returned.
    @usableFromInline var makersHandle: AnyCancellable?

    @usableFromInline
    init(_ subscription: AnyCancellable) {
        self.subscription = subscription
    }

    /// The owner's handle was cancelled, or deinitialised with the owner.
    @usableFromInline
    override func cancelFromHandle() {
        subscription.cancel()
    }
}

extension BindingSink {
    /// Binds to `source`'s fused sink (see the top of this file); `nil` if the source has
    /// none, the sink runs on the main thread or has a completion, or the owner is gone.
    @inlinable
    func bindFused<Source: Publisher>(_ source: Source) -> AnyCancellable?
    where Source.Output == Input, Source.Failure == Never {
        guard delivery != .mainActor, receiveCompletion == nil, let owner = reference.object else { return nil }
        let reference = self.reference
        let receiveValue = self.receiveValue
        // The owner is alive while the binding is registered, but for the moment its
        // deinit runs on another thread (its `subscriptions` not yet gone).
        guard let subscription = source._fusedSink({ value in
            if let owner = reference.object { receiveValue(owner, value) }
        }) else { return nil }
        let binding = FusedBinding(subscription)
        let makersHandle = AnyCancellable.unchecked { [weak binding] in binding?.subscription.cancel() }
        binding.makersHandle = makersHandle
        owner.subscriptions.insert(AnyCancellable(target: binding))
        return makersHandle
    }
}
