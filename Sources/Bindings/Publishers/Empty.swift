/// A publisher that never publishes any values, and optionally finishes immediately, as
/// in Combine.
///
/// ```swift
/// let c = Empty<Int, Never>().sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
/// // prints "finished"
/// ```
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
    /// Whether the publisher finishes at once (`true`) or never (`false`).
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher with the given types, for type inference.
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    /// Gives `subscriber` an empty subscription, then `.finished` if `completeImmediately`.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }

    /// Two empty publishers are equal when they complete alike.
    public static func == (lhs: Empty, rhs: Empty) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}
