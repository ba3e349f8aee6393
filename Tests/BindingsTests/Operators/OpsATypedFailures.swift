import BindingsTestSupport
import Bindings

// The `try` operators fail with `any Error`, which is not `Equatable`: these turn a
// recorder's events back into ones with `TestError` failures, so that tests still
// compare whole event sequences.

extension RecordedEvent where Failure == any Error {
    /// This event, with a failure cast back to the `TestError` it is (any other error
    /// becomes `TestError(-1)`, which no test throws).
    func asTestErrorEvent() -> RecordedEvent<Value, TestError> {
        switch self {
        case .subscription: .subscription
        case .value(let value): .value(value)
        case .finished: .finished
        case .failure(let error): .failure(error as? TestError ?? TestError(-1))
        }
    }
}

extension TestRecorder where Failure == any Error {
    /// The events received so far, with `TestError` failures (see `asTestErrorEvent`).
    var testErrorEvents: [RecordedEvent<Input, TestError>] {
        events.map { $0.asTestErrorEvent() }
    }
}

/// A closure for the `try` operators that throws `TestError.boom` for `value`, and
/// otherwise returns its input.
func throwing<T: Equatable>(on value: T) -> (T) throws -> T {
    { input in
        if input == value { throw TestError.boom }
        return input
    }
}
