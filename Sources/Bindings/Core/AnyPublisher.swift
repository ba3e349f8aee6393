/// A publisher that performs type erasure by wrapping another publisher, as in Combine.
///
/// ```swift
/// let names: AnyPublisher<String, Never> = person.$firstName.eraseToAnyPublisher()
/// ```
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    /// The wrapped publisher, behind a class whose generic method receives the subscriber
    /// as it is: no `AnySubscriber` (three closure contexts) per subscription, and no
    /// closure call per value.
    @usableFromInline
    let box: AnyPublisherBoxBase<Output, Failure>

    /// Creates a type-erasing publisher to wrap `publisher`.
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
            return
        }
        box = AnyPublisherBox(publisher)
    }

    /// `"AnyPublisher"`, as in Combine: the wrapped publisher stays hidden.
    public var description: String { "AnyPublisher" }

    /// `"AnyPublisher"`, as in Combine.
    public var playgroundDescription: Any { description }

    /// Attaches `subscriber` to the wrapped publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
    }
}

/// The type-erased face of ``AnyPublisherBox``.
@usableFromInline
class AnyPublisherBoxBase<Output, Failure: Error> {
    @usableFromInline
    init() {}

    @usableFromInline
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        preconditionFailure("Bindings internal error: AnyPublisherBoxBase.receive is abstract")
    }
}

/// Holds the wrapped publisher of an ``AnyPublisher``.
@usableFromInline
final class AnyPublisherBox<Wrapped: Publisher>: AnyPublisherBoxBase<Wrapped.Output, Wrapped.Failure> {
    @usableFromInline
    let wrapped: Wrapped

    @usableFromInline
    init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    @usableFromInline
    override func receive<S: Subscriber>(subscriber: S)
    where S.Input == Wrapped.Output, S.Failure == Wrapped.Failure {
        wrapped.receive(subscriber: subscriber)
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}
