extension Subscribers {
    /// A signal that a publisher doesn't produce additional elements, either due to
    /// normal completion or an error, as in Combine.
    @frozen
    public enum Completion<Failure: Error> {
        /// The publisher finished normally.
        case finished
        /// The publisher stopped publishing due to the indicated error.
        case failure(Failure)
    }
}

extension Subscribers.Completion: Sendable {}
extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}

extension Subscribers.Completion {
    /// Erases the failure type of a completion that cannot fail.
    @inlinable
    func eraseNever<NewFailure: Error>() -> Subscribers.Completion<NewFailure>
    where Failure == Never {
        .finished
    }

    /// Transforms the failure of a completion.
    @inlinable
    func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Subscribers.Completion<NewFailure> {
        switch self {
        case .finished: return .finished
        case .failure(let error): return .failure(transform(error))
        }
    }
}
