extension Publisher {
    /// The elements of this publisher as an asynchronous sequence that throws the
    /// publisher's failure, as in Combine.
    ///
    /// Each iteration subscribes anew and asks for one value per `next()`; the sequence
    /// ends when the publisher finishes and throws when it fails. Cancelling the
    /// iterating task, or leaving the loop, cancels the subscription.
    ///
    /// ```swift
    /// do {
    ///     for try await line in lines.values { print(line) }
    /// } catch {
    ///     print("failed:", error)
    /// }
    /// ```
    public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}

/// A publisher that exposes its elements as a throwing asynchronous sequence, as in
/// Combine.
///
/// Create one with the `values` property of a publisher
/// that can fail. Its iterator throws the publisher's own `Failure` type (typed throws),
/// which `try`/`catch` code written for Combine's untyped `throws` accepts unchanged.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The type of element produced by this asynchronous sequence.
    public typealias Element = P.Output
    /// The error the sequence throws: the publisher's failure.
    public typealias Failure = P.Failure

    private let publisher: P

    /// Creates a throwing asynchronous sequence of the elements of `publisher`.
    public init(_ publisher: P) { self.publisher = publisher }

    /// Subscribes to the publisher and returns an iterator over its elements.
    public func makeAsyncIterator() -> Iterator {
        let subscriber = ValuesSubscriber<P.Output, P.Failure>()
        let iterator = Iterator(handle: ValuesSubscriber.Handle(subscriber))
        publisher.subscribe(subscriber)
        return iterator
    }

    /// The iterator that produces the elements of the asynchronous publisher sequence.
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of element produced by this iterator.
        public typealias Element = P.Output
        /// The error the iterator throws: the publisher's failure.
        public typealias Failure = P.Failure

        private let handle: ValuesSubscriber<P.Output, P.Failure>.Handle

        fileprivate init(handle: ValuesSubscriber<P.Output, P.Failure>.Handle) { self.handle = handle }

        /// Requests one element and returns it; returns `nil` once the publisher has
        /// finished or the calling task has been cancelled, and throws the publisher's
        /// failure (once; later calls return `nil`).
        public mutating func next() async throws(P.Failure) -> P.Output? {
            try await next(isolation: nil)
        }

        /// Like ``next()``, waiting in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(P.Failure) -> P.Output? {
            try await handle.subscriber.next(isolation: actor).get()
        }
    }
}

extension AsyncThrowingPublisher: Sendable where P: Sendable {}
