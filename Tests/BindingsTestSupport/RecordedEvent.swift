import Bindings

/// One event a ``TestRecorder`` received, for exact assertions on what a subscriber saw:
/// compare whole arrays of them (`recorder.events == [.value(1), .finished]`).
///
/// `.subscription` is only recorded by a recorder made with `recordsSubscription: true`.
package enum RecordedEvent<Value, Failure: Error> {
    case subscription
    case value(Value)
    case finished
    case failure(Failure)

    /// The event for `completion`: `.finished` or `.failure(error)`.
    package static func completion(_ completion: Subscribers.Completion<Failure>) -> Self {
        switch completion {
        case .finished: .finished
        case .failure(let error): .failure(error)
        }
    }

    /// This event with its value turned into another (a tuple into something `Equatable`).
    package func map<NewValue>(_ transform: (Value) -> NewValue) -> RecordedEvent<NewValue, Failure> {
        switch self {
        case .subscription: .subscription
        case .value(let value): .value(transform(value))
        case .finished: .finished
        case .failure(let error): .failure(error)
        }
    }
}

extension RecordedEvent: Equatable where Value: Equatable, Failure: Equatable {}

extension RecordedEvent: Sendable where Value: Sendable, Failure: Sendable {}

extension RecordedEvent: CustomStringConvertible {
    package var description: String {
        switch self {
        case .subscription: "subscription"
        case .value(let value): "value(\(value))"
        case .finished: "finished"
        case .failure(let error): "failure(\(error))"
        }
    }
}
