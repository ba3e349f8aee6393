extension Publishers {
    /// A publisher that collects every element of its upstream and publishes them as one
    /// array when the upstream finishes, as in Combine.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.collect().sink { print($0) }   // prints [1, 2, 3]
    /// ```
    ///
    /// It asks upstream for everything at once and keeps every element (memory grows
    /// with the stream); the array waits for the subscriber's request, then `.finished`
    /// follows. An upstream that finishes empty gives `[]`; a failure goes down at once
    /// and the elements are dropped.
    public struct Collect<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's elements, in an array.
        public typealias Output = [Upstream.Output]
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that collects the elements of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the upstream publisher through the collection.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == [Upstream.Output], S.Failure == Failure {
            upstream.subscribe(ReduceInner(stage: Stage(), downstream: subscriber))
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}
extension Publishers.Collect: Sendable where Upstream: Sendable {}

extension Publishers.Collect {
    /// Appends each value.
    @usableFromInline
    struct Stage: ReducingStage {
        @usableFromInline var elements: [Upstream.Output] = []

        @inlinable
        init() {}

        @usableFromInline static var name: String { "Collect" }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
            elements.append(input)
            return .more
        }

        /// Moves the array out, so that it is not kept twice.
        @inlinable
        mutating func takeResult() -> [Upstream.Output]? {
            let elements = self.elements
            self.elements = []
            return elements
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> Upstream.Failure { error }
    }
}

extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when
    /// the upstream publisher finishes.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.collect().sink { print($0) }   // prints [1, 2, 3]
    /// ```
    @inlinable
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}
