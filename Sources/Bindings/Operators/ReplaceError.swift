extension Publishers {
    /// A publisher that replaces any error in the stream with a provided element, as in
    /// Combine.
    ///
    /// ```swift
    /// let c = downloads.replaceError(with: placeholder).sink { show($0) }
    /// ```
    ///
    /// The upstream's elements and `.finished` pass through; a failure is replaced by
    /// `output` (published once the subscriber has demand for it), then `.finished`, so
    /// that this publisher cannot fail. Demand goes straight upstream; the subscriber
    /// gets a subscription of this publisher's own (a request of zero stops the program,
    /// as in Combine).
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// It cannot fail.
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes `output`, then finishes, when `upstream`
        /// fails.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber` to the upstream publisher, with the replacement.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(ReplacingInner<Rule, Output, S>(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
extension Publishers.ReplaceError: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

extension Publishers.ReplaceError {
    /// Replaces a failure; a `.finished` passes on.
    enum Rule: ReplacementRule {
        typealias UpstreamFailure = Upstream.Failure
        typealias Failure = Never

        static var name: String { "ReplaceError" }

        static func replaces(_ completion: Subscribers.Completion<Upstream.Failure>, receivedValue: Bool) -> Bool {
            !completion.isFinished
        }

        static func passOn(_ completion: Subscribers.Completion<Upstream.Failure>) -> Subscribers.Completion<Never> {
            .finished
        }
    }
}

extension Publisher {
    /// Replaces any error in the stream with the provided element: if the upstream
    /// fails, this publisher emits `output`, then finishes normally.
    ///
    /// ```swift
    /// let c = downloads.replaceError(with: placeholder).sink { show($0) }
    /// ```
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}
