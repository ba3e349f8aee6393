extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream's
    /// completion, as in Combine.
    ///
    /// ```swift
    /// let c = upload.ignoreOutput().sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
    /// // prints finished (or the failure) once upload ends
    /// ```
    ///
    /// Like Combine's, it passes the upstream subscription to its subscriber and asks
    /// upstream for `.unlimited` itself, so the upstream runs to its end whatever the
    /// subscriber asks for.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// The kind of values published: none.
        public typealias Output = Never
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that passes along only the completion of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the upstream publisher, for its completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}
extension Publishers.IgnoreOutput: Sendable where Upstream: Sendable {}

extension Publishers.IgnoreOutput {
    /// Drops every value; passes the upstream subscription through.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Never, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        @usableFromInline var description: String { "IgnoreOutput" }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }
    }
}

extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's
    /// completion state (finished or failed).
    ///
    /// ```swift
    /// let c = upload.ignoreOutput().sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
    /// ```
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}
