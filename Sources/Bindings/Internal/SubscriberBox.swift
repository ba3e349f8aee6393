/// An operator's downstream subscriber, held by reference.
///
/// For operators whose code runs generic (an upstream calls them through its
/// `Subscriber` conformance, so nothing is specialized): there a `Downstream?` is copied
/// through `Optional<Downstream>`'s metadata, looked up in the runtime's cache at each
/// use, where an optional reference to this box is copied with a retain. Used on the
/// per-value paths of the operators that run as generic code: `receive(on:)`, `delay`,
/// `combineLatest`, `merge`, `flatMap`, `switchToLatest` and the ``StageInner`` ones.
@usableFromInline
final class SubscriberBox<Downstream: Subscriber> {
    @usableFromInline let subscriber: Downstream

    @inlinable
    init(_ subscriber: Downstream) { self.subscriber = subscriber }
}
