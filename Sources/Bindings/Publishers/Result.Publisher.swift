extension Result {
    /// A publisher that publishes the success value to each subscriber once, then
    /// finishes; or fails at once with the failure. As in Combine.
    ///
    /// ```swift
    /// let parsed: Result<Int, ParseError> = parse("42")
    /// let c = parsed.publisher.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // 42, then finished; or failure(...) alone
    /// ```
    public var publisher: Result<Success, Failure>.Publisher {
        Publisher(self)
    }

    /// A publisher that publishes a result's success value to each subscriber once and
    /// finishes, or fails at once with its failure, as in Combine (where its subscription
    /// is named "Once"). Make one with a result's `publisher`.
    ///
    /// The value waits for a request (a request of `.none` stops the program, as in
    /// Combine); the failure does not. The operators that Combine computes at once on it
    /// (`map`, `removeDuplicates`, `scan`, `setFailureType(to:)`) return another
    /// `Result.Publisher`.
    public struct Publisher: Bindings.Publisher {
        /// The kind of value published: the result's success type.
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Success, Failure>

        /// Creates a publisher that delivers `result`.
        public init(_ result: Result<Success, Failure>) {
            self.result = result
        }

        /// Creates a publisher that delivers `output`, then finishes.
        public init(_ output: Success) {
            self.init(.success(output))
        }

        /// Creates a publisher that fails with `failure` as soon as it is subscribed to.
        public init(_ failure: Failure) {
            self.init(.failure(failure))
        }

        /// Gives `subscriber` a subscription that delivers the value and `.finished` on
        /// its first request; or an empty subscription and the failure at once.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let output):
                subscriber.receive(
                    subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Once"))
            case .failure(let failure):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(failure))
            }
        }
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}

// Combine's specializations: the result is known at once, so each of these operators
// returns another `Result.Publisher` (its closure runs now, not at subscription).

extension Result.Publisher where Success: Equatable {
    /// Returns this publisher: one value has no duplicates.
    public func removeDuplicates() -> Result<Success, Failure>.Publisher {
        self
    }
}

extension Result.Publisher {
    /// Returns a publisher of `transform` applied to the success value, or of the same
    /// failure.
    ///
    /// ```swift
    /// let p: Result<String, ParseError>.Publisher = parsed.publisher.map(String.init)
    /// ```
    public func map<T>(_ transform: (Success) -> T) -> Result<T, Failure>.Publisher {
        .init(result.map(transform))
    }

    /// Returns this publisher: one value has no duplicates.
    public func removeDuplicates(by predicate: (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns a publisher of `nextPartialResult(initialResult, value)`, the one running
    /// result of a single value, or of the same failure.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Success) -> T) -> Result<T, Failure>.Publisher {
        .init(result.map { nextPartialResult(initialResult, $0) })
    }
}

extension Result.Publisher where Failure == Never {
    /// Returns a publisher of the same value that declares the failure type `E`.
    ///
    /// ```swift
    /// let p: Result<Int, ParseError>.Publisher = Result<Int, Never>.success(1).publisher
    ///     .setFailureType(to: ParseError.self)
    /// ```
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Success, E>.Publisher {
        switch result {
        case .success(let output): .init(.success(output))
        }
    }
}
