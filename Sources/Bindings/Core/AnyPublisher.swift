/// A publisher that performs type erasure by wrapping another publisher, as in Combine.
///
/// ```swift
/// let names: AnyPublisher<String, Never> = person.$firstName.eraseToAnyPublisher()
/// ```
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    @usableFromInline
    let subscribeBody: (AnySubscriber<Output, Failure>) -> Void
    private let name: String

    /// Creates a type-erasing publisher to wrap `publisher`.
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
            return
        }
        name = "AnyPublisher<\(P.self)>"
        subscribeBody = { publisher.receive(subscriber: $0) }
    }

    public var description: String { name }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribeBody(AnySubscriber(subscriber))
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}
