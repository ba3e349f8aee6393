extension Publishers {
    /// A publisher that appears to send a specified failure type, as in Combine.
    ///
    /// The upstream cannot fail; this only changes the declared failure type, so that it
    /// can be combined with publishers that can (`switchToLatest` uses it for a
    /// never-failing publisher of failable publishers).
    ///
    /// ```swift
    /// let ticks: AnyPublisher<Int, NetworkError> = counter.$count.setFailureType(to: NetworkError.self)
    ///     .eraseToAnyPublisher()
    /// ```
    ///
    /// Like Combine's, it adds no subscription of its own: the subscriber receives the
    /// upstream subscription.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher
    where Upstream.Failure == Never {
        /// The upstream's output type.
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that republishes `upstream` with the failure type `Failure`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the upstream, declaring the failure type `Failure`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber))
        }

        /// Returns the same upstream with another failure type.
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType<Upstream, E>(upstream: upstream)
        }

        /// Forwards everything; a `.finished` completion is all a never-failing upstream sends.
        private struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            let downstream: Downstream
            let combineIdentifier = CombineIdentifier()

            var description: String { "SetFailureType" }

            func receive(subscription: any Subscription) {
                downstream.receive(subscription: subscription)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Never>) {
                downstream.receive(completion: .finished)
            }
        }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publisher where Failure == Never {
    /// Changes the failure type declared by a publisher that cannot fail.
    ///
    /// ```swift
    /// let p = subject.setFailureType(to: MyError.self)   // Output Int, Failure MyError
    /// ```
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}
