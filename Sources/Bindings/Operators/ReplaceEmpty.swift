extension Publishers {
    /// A publisher that replaces an empty stream with a provided element, as in Combine.
    ///
    /// ```swift
    /// let c = Empty<Int, Never>().replaceEmpty(with: 0).sink { print($0) }   // prints 0
    /// ```
    ///
    /// The upstream's elements and failure pass through; when the upstream finishes
    /// without an element, `output` is published (once the subscriber has asked for
    /// something), then `.finished`. Demand goes straight upstream; the subscriber gets a
    /// subscription of this publisher's own (a request of zero stops the program, as in
    /// Combine).
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering
        /// any elements.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes `output` if `upstream` finishes empty.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber` to the upstream publisher, with the replacement.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReplacingInner<Rule, Output, S>(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
extension Publishers.ReplaceEmpty: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

extension Publishers.ReplaceEmpty {
    /// Replaces a `.finished` that no element preceded; passes every other end on.
    enum Rule: ReplacementRule {
        typealias UpstreamFailure = Upstream.Failure
        typealias Failure = Upstream.Failure

        static var name: String { "ReplaceEmpty" }

        static func replaces(_ completion: Subscribers.Completion<Upstream.Failure>, receivedValue: Bool) -> Bool {
            completion.isFinished && !receivedValue
        }

        static func passOn(_ completion: Subscribers.Completion<Upstream.Failure>) -> Subscribers.Completion<Upstream.Failure> {
            completion
        }
    }
}

extension Publisher {
    /// Replaces an empty stream with the provided element: if the upstream finishes
    /// without an element, this publisher emits `output`, then finishes.
    ///
    /// ```swift
    /// let c = searchResults.replaceEmpty(with: "no results").sink { print($0) }
    /// ```
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}
