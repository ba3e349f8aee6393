/// A publisher that immediately terminates with the specified error, as in Combine.
///
/// ```swift
/// let c = Fail<Int, MyError>(error: .broken)
///     .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })   // failure(.broken)
/// ```
public struct Fail<Output, Failure: Error>: Publisher {
    /// The failure to send when terminating the publisher.
    public let error: Failure

    /// Creates a publisher that fails at once with `error`.
    public init(error: Failure) { self.error = error }

    /// Creates a publisher with the given output type that fails at once with `failure`.
    public init(outputType: Output.Type, failure: Failure) { self.error = failure }

    /// Gives `subscriber` an empty subscription, then the failure.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable {}
