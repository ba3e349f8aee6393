extension Publishers {
    /// A publisher that decodes each element of its upstream with a top-level decoder,
    /// as in Combine.
    ///
    /// ```swift
    /// // With FoundationBindings, whose JSONDecoder is a TopLevelDecoder:
    /// let c = messages.decode(type: Order.self, decoder: JSONDecoder())
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// When decoding throws, the upstream subscription is cancelled and the subscriber
    /// fails with the error. The subscriber gets a subscription of this publisher's own,
    /// which passes demand straight upstream.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// The kind of errors this publisher might publish: the upstream's or the
        /// decoder's.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        @usableFromInline let decoder: Coder

        /// Creates a publisher that decodes each element of `upstream` with `decoder`.
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Attaches `subscriber` to the upstream publisher through the decoder.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(StageInner(stage: Stage(decoder: decoder), downstream: subscriber))
        }
    }
}

extension Publishers.Decode {
    /// Decodes each value; a thrown error ends the stream.
    @usableFromInline
    struct Stage: OperatorStage {
        @usableFromInline let decoder: Coder

        @inlinable
        init(decoder: Coder) {
            self.decoder = decoder
        }

        @usableFromInline static var name: String { "Decode" }
        @usableFromInline static var trapsOnZeroDemand: Bool { false }

        @inlinable
        mutating func step(_ input: Upstream.Output) -> StageStep<Output, any Error> {
            do {
                return .publish(try decoder.decode(Output.self, from: input))
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        static func failure(_ error: Upstream.Failure) -> any Error { error }
    }
}

extension Publisher {
    /// Decodes the output from the upstream using a specified decoder; a decoding error
    /// cancels the upstream and fails the subscriber with it.
    ///
    /// ```swift
    /// // With FoundationBindings:
    /// let c = messages.decode(type: Order.self, decoder: JSONDecoder())
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}
