extension Publishers {
    /// A publisher that encodes each element of its upstream with a top-level encoder,
    /// as in Combine.
    ///
    /// ```swift
    /// // With FoundationBindings, whose JSONEncoder is a TopLevelEncoder:
    /// let c = orders.encode(encoder: JSONEncoder())
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { send($0) })
    /// ```
    ///
    /// When encoding throws, the upstream subscription is cancelled and the subscriber
    /// fails with the error. The subscriber gets a subscription of this publisher's own,
    /// which passes demand straight upstream.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        /// The kind of errors this publisher might publish: the upstream's or the
        /// encoder's.
        public typealias Failure = any Error
        /// The kind of values published: what the encoder produces.
        public typealias Output = Coder.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        @usableFromInline let encoder: Coder

        /// Creates a publisher that encodes each element of `upstream` with `encoder`.
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Attaches `subscriber` to the upstream publisher through the encoder.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Coder.Output, S.Failure == any Error {
            upstream.subscribe(StageInner(stage: Stage(encoder: encoder), downstream: subscriber))
        }
    }
}

extension Publishers.Encode {
    /// Encodes each value; a thrown error ends the stream.
    @usableFromInline
    struct Stage: OperatorStage {
        @usableFromInline let encoder: Coder

        @inlinable
        init(encoder: Coder) {
            self.encoder = encoder
        }

        @usableFromInline static var name: String { "Encode" }
        @usableFromInline static var trapsOnZeroDemand: Bool { false }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Coder.Output, any Error> {
            do {
                return .publish(try encoder.encode(input))
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher where Output: Encodable {
    /// Encodes the output from upstream using a specified encoder; an encoding error
    /// cancels the upstream and fails the subscriber with it.
    ///
    /// ```swift
    /// // With FoundationBindings:
    /// let c = orders.encode(encoder: JSONEncoder()).sink(receiveCompletion: { print($0) }, receiveValue: { send($0) })
    /// ```
    @inlinable
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}
