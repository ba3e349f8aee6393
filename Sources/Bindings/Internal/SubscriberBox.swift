/// An operator's downstream subscriber, held by reference.
///
/// For operators whose code runs generic (an upstream calls them through its
/// `Subscriber` conformance, so nothing is specialized): there a `Downstream?` is copied
/// through `Optional<Downstream>`'s metadata, looked up in the runtime's cache at each
/// use, where an optional reference to this box is copied with a retain. Used on the
/// per-value paths of `receive(on:)`, `delay` and `combineLatest`.
final class SubscriberBox<Downstream: Subscriber> {
    let subscriber: Downstream

    init(_ subscriber: Downstream) { self.subscriber = subscriber }
}
