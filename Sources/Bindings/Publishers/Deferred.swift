/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber, as in Combine.
///
/// ```swift
/// let now = Deferred { Just(currentReading()) }   // read at each subscription
/// ```
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The kind of values the created publisher publishes.
    public typealias Output = DeferredPublisher.Output
    /// The kind of errors the created publisher might publish.
    public typealias Failure = DeferredPublisher.Failure

    /// The closure to execute when this publisher receives a subscription.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher.
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Runs `createPublisher` and attaches `subscriber` to the publisher it returns.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().receive(subscriber: subscriber)
    }
}
