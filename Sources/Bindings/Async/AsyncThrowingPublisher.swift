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
/// that can fail. Its iterator's `next()` is declared `throws`, as Combine's is: what it
/// throws is always the publisher's `Failure`, which a `catch let error as MyError`
/// recovers.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The type of element produced by this asynchronous sequence.
    public typealias Element = P.Output
    /// The error type the sequence declares: any error, as the iterator's untyped
    /// `throws` (the publisher's failure at run time).
    public typealias Failure = any Error

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
        /// The error type the iterator declares: any error, as its untyped `throws`.
        public typealias Failure = any Error

        private let handle: ValuesSubscriber<P.Output, P.Failure>.Handle

        fileprivate init(handle: ValuesSubscriber<P.Output, P.Failure>.Handle) { self.handle = handle }

        /// Requests one element and returns it; returns `nil` once the publisher has
        /// finished or the calling task has been cancelled, and throws the publisher's
        /// failure (once; later calls return `nil`).
        ///
        /// Untyped `throws`, as Combine declares it. (Typed `throws(P.Failure)` made the
        /// compiler crash where a generic `rethrows` function iterates the sequence.)
        public mutating func next() async throws -> P.Output? {
            try await next(isolation: nil)
        }

        /// Like ``next()``, waiting in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> P.Output? {
            try await handle.subscriber.next(isolation: actor).get()
        }
    }
}

extension AsyncThrowingPublisher: Sendable where P: Sendable {}
