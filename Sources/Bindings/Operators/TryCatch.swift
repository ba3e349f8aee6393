extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed
    /// publisher with another publisher, or by failing with an error the handler throws,
    /// as in Combine.
    ///
    /// Because the handler can throw, the failure type is `any Error`, unlike
    /// ``Publishers/Catch``, whose failure type is the replacement's.
    ///
    /// ```swift
    /// let c = fetchScores()
    ///     .tryCatch { error in
    ///         guard error.isTransient else { throw error }   // ends the stream with this error
    ///         return fetchScores()                            // otherwise, try once more
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { show($0) })
    /// ```
    ///
    /// Demand carries over to the replacement as for ``Publishers/Catch``.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the handler's, or the replacement's failure.
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that accepts the upstream failure as input and either returns a
        /// publisher to replace the upstream publisher or throws an error.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that replaces a failed `upstream` with the publisher that
        /// `handler` makes of its error, or fails with what `handler` throws.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Gives `subscriber` its subscription, then subscribes to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            let inner = CatchInner<Upstream, NewPublisher, S>(
                downstream: subscriber, description: "TryCatch",
                handler: { error in
                    do { return .success(try handler(error)) } catch { return .failure(error) }
                },
                convert: { $0 })
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner.upstreamSide)
        }
    }
}

extension Publisher {
    /// Handles errors from an upstream publisher by either replacing it with another
    /// publisher or throwing a new error, which ends the stream.
    ///
    /// ```swift
    /// let c = fetchScores()
    ///     .tryCatch { error -> AnyPublisher<[Int], FetchError> in
    ///         if error == .unauthorised { throw error }
    ///         return fetchCachedScores()
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { show($0) })
    /// ```
    public func tryCatch<P: Publisher>(
        _ handler: @escaping (Failure) throws -> P
    ) -> Publishers.TryCatch<Self, P> where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}
