/// What an ``AnyCancellable`` cancels.
///
/// The library's own subscriptions (property observers, binding subscribers) are targets
/// themselves, so that the `AnyCancellable` a subscription returns is one small object
/// pointing at it, with no box or closure in between; anything else is wrapped in a
/// ``ClosureCancellation`` or a ``BoxedCancellation``.
///
/// Contract: ``cancelFromHandle()`` is called at most once per `AnyCancellable` that
/// holds the target, from any thread.
@usableFromInline
class CancellationTarget {
    @usableFromInline
    init() {}

    /// Cancels the activity. Subclasses override it; the default does nothing.
    @usableFromInline
    func cancelFromHandle() {}

    /// `handle`, which held this target, is being deinitialised: cancels, as Combine's
    /// `AnyCancellable` does. A target with a second handle that must not cancel when it
    /// goes (a binding's, returned to its maker) tells the two apart here.
    @usableFromInline
    func handleDeinitialized(_ handle: AnyCancellable) {
        cancelFromHandle()
    }
}

/// The target of `AnyCancellable(_:)` with a closure: runs it.
final class ClosureCancellation: CancellationTarget {
    private let body: () -> Void

    init(_ body: @escaping () -> Void) { self.body = body }

    override func cancelFromHandle() { body() }
}

/// The target of `AnyCancellable(_:)` with any other `Cancellable`: forwards to it.
final class BoxedCancellation<Canceller: Cancellable>: CancellationTarget {
    private let canceller: Canceller

    init(_ canceller: Canceller) { self.canceller = canceller }

    override func cancelFromHandle() { canceller.cancel() }
}
