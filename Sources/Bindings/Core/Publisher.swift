/// Declares that a type can transmit a sequence of values over time, as in Combine.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The
/// subscriber's `Input` and `Failure` must match the publisher's `Output` and `Failure`.
///
/// ```swift
/// let cancellable = Just(1).map { $0 * 2 }.sink { print($0) }   // prints 2
/// ```
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output
    /// The kind of errors this publisher might publish; `Never` if it cannot fail.
    associatedtype Failure: Error

    /// Attaches the specified subscriber to this publisher.
    ///
    /// Implementations call `subscriber.receive(subscription:)` exactly once. Users call
    /// ``subscribe(_:)->()`` instead, which forwards here.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure

    /// Not for use: the channel that a binding of this publisher can register on
    /// directly (a property publisher's), or `nil` (every other publisher, the default).
    /// A requirement, so that `<~` finds it from code specialized for the publisher's type,
    /// with no dynamic cast.
    func _bindingChannel() -> _BindingChannel<Output>?

    /// Not for use: subscribes `receiveValue` to every value with unlimited demand, as
    /// `sink(receiveValue:)` does, fused into one closure registered straight on a
    /// property's or subject's channel, when this publisher can (a property publisher, a
    /// subject, an `ObservableValue`, an `ObservableArray`'s changes, a `share()` or
    /// `multicast` of one, or `map`, `filter`, `compactMap`, `removeDuplicates` and `scan`
    /// of those); `nil` otherwise (the default), and `sink` subscribes as usual. Only
    /// called when `Failure` is `Never`. The closure is let go of when the subscription
    /// ends, cancelled or with its source.
    func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable?
}

extension Publisher {
    /// Not for use: no channel to bind to directly (see the requirement).
    @inlinable
    public func _bindingChannel() -> _BindingChannel<Output>? { nil }

    /// Not for use: no fused `sink` (see the requirement).
    @inlinable
    public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? { nil }
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    @inlinable
    public func subscribe<S: Subscriber>(_ subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}

/// A namespace for types that serve as publishers, as in Combine.
public enum Publishers {}
