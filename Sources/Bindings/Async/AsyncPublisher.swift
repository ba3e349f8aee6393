extension Publisher where Failure == Never {
    /// The elements of this publisher as an asynchronous sequence, as in Combine.
    ///
    /// Each iteration subscribes anew and asks for one value per `next()`; the sequence
    /// ends when the publisher finishes. Cancelling the iterating task, or leaving the
    /// loop, cancels the subscription.
    ///
    /// ```swift
    /// for await name in person.$firstName.values {
    ///     print(name)
    /// }
    /// ```
    public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

/// A publisher that exposes its elements as an asynchronous sequence, as in Combine.
///
/// Create one with the `values` property of a publisher
/// that cannot fail (``AsyncThrowingPublisher`` is the one for publishers that can).
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    /// The type of element produced by this asynchronous sequence.
    public typealias Element = P.Output
    /// The sequence cannot fail.
    public typealias Failure = Never

    private let publisher: P

    /// Creates an asynchronous sequence of the elements of `publisher`.
    public init(_ publisher: P) { self.publisher = publisher }

    /// Subscribes to the publisher and returns an iterator over its elements.
    public func makeAsyncIterator() -> Iterator {
        let subscriber = ValuesSubscriber<P.Output, Never>()
        let iterator = Iterator(handle: ValuesSubscriber.Handle(subscriber))
        publisher.subscribe(subscriber)
        return iterator
    }

    /// The iterator that produces the elements of the asynchronous publisher sequence.
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of element produced by this iterator.
        public typealias Element = P.Output
        /// The iterator cannot fail.
        public typealias Failure = Never

        private let handle: ValuesSubscriber<P.Output, Never>.Handle

        fileprivate init(handle: ValuesSubscriber<P.Output, Never>.Handle) { self.handle = handle }

        /// Requests one element and returns it, or `nil` once the publisher has
        /// finished or the calling task has been cancelled.
        public mutating func next() async -> P.Output? {
            await next(isolation: nil)
        }

        /// Requests one element and returns it, or `nil` once the publisher has
        /// finished or the calling task has been cancelled; waits in the caller's
        /// isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> P.Output? {
            switch await handle.subscriber.next(isolation: actor) {
            case .success(let element): element
            }
        }
    }
}

extension AsyncPublisher: Sendable where P: Sendable {}
