/// A protocol indicating that an activity or action supports cancellation, as in Combine.
///
/// Calling `cancel()` frees up any allocated resources and stops side effects such as
/// deliveries. Implementations in this library are idempotent and thread-safe.
public protocol Cancellable {
    /// Cancel the activity.
    func cancel()
}

extension Cancellable where Self: Sendable {
    /// Stores this cancellable in the given collection, keeping it alive as long as the
    /// collection holds it. (An `AnyCancellable` may be cancelled on any thread, hence
    /// `Sendable`; wrap anything else in an `AnyCancellable` of your own.)
    ///
    /// ```swift
    /// var bag: [AnyCancellable] = []
    /// subject.sink { print($0) }.store(in: &bag)
    /// ```
    @inlinable
    public func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        collection.append(AnyCancellable(self))
    }

    /// Stores this cancellable in the given set.
    ///
    /// ```swift
    /// var subscriptions = Set<AnyCancellable>()
    /// subject.sink { print($0) }.store(in: &subscriptions)
    /// ```
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(AnyCancellable(self))
    }
}
