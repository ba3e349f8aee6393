extension Publishers {
    /// A publisher that publishes only elements that don't match the previously published
    /// element, as judged by an error-throwing predicate, as in Combine.
    ///
    /// ```swift
    /// let c = readings.tryRemoveDuplicates { try $0.isSameReading(as: $1) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// Each element is compared with the last one published; each dropped duplicate is
    /// replaced by asking upstream for one more (`.max(1)`). When the predicate throws,
    /// the upstream subscription is cancelled and the subscriber fails with the error.
    /// The subscriber gets a subscription of this publisher's own, which passes demand
    /// upstream (a request of zero stops the program, as in Combine).
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: whatever the upstream or the
        /// predicate throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that returns whether two elements are duplicates:
        /// `true` drops the second one.
        public let predicate: (Output, Output) throws -> Bool

        /// Creates a publisher that drops each element for which
        /// `predicate(lastPublished, element)` returns `true`, failing with what it
        /// throws.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` to the upstream publisher through the comparison.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(StageInner(stage: Stage(predicate: predicate), downstream: subscriber))
        }
    }
}

extension Publishers.TryRemoveDuplicates {
    /// Remembers the last published value; a thrown error ends the stream.
    @usableFromInline
    struct Stage: OperatorStage {
        @usableFromInline var last: Upstream.Output?
        @usableFromInline let predicate: (Upstream.Output, Upstream.Output) throws -> Bool

        @inlinable
        init(predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.predicate = predicate
        }

        @usableFromInline static var name: String { "TryRemoveDuplicates" }
        @usableFromInline static var trapsOnZeroDemand: Bool { true }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Upstream.Output, any Error> {
            do {
                if let last, try predicate(last, input) { return .drop }
                last = input
                return .publish(input)
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as judged by an
    /// error-throwing predicate (`true` means "duplicate: drop it"); a thrown error
    /// cancels the upstream and fails the subscriber with it.
    ///
    /// ```swift
    /// let c = readings.tryRemoveDuplicates { try $0.isSameReading(as: $1) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}
