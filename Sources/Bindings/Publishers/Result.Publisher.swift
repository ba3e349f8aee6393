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

// The specializations Combine declares for the reducing, `try` and error operators: each
// applies the operator to the success value and keeps the failure (a `try` closure's
// error becomes the failure). As in Combine, `ignoreOutput()` gives an `Empty`, which
// finishes even when the result is a failure.

extension Result.Publisher where Success: Equatable {
    /// Returns a publisher of whether the value equals `output`, or of the same failure.
    ///
    /// ```swift
    /// let p: Result<Bool, Never>.Publisher = Result<Int, Never>.success(3).publisher.contains(3)   // true
    /// ```
    public func contains(_ output: Success) -> Result<Bool, Failure>.Publisher {
        .init(result.map { $0 == output })
    }
}

extension Result.Publisher where Success: Comparable {
    /// Returns this publisher: the minimum of one value is that value.
    public func min() -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns this publisher: the maximum of one value is that value.
    public func max() -> Result<Success, Failure>.Publisher {
        self
    }
}

extension Result.Publisher {
    /// Returns a publisher of whether the value satisfies `predicate`, or of the same
    /// failure.
    public func allSatisfy(_ predicate: (Success) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(result.map(predicate))
    }

    /// Returns a publisher of whether the value satisfies `predicate`, or of the failure,
    /// or of the error `predicate` throws.
    public func tryAllSatisfy(_ predicate: (Success) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(result.tryMap(predicate))
    }

    /// Returns a publisher of the value in an array, or of the same failure.
    ///
    /// ```swift
    /// let p: Result<[Int], Never>.Publisher = Result<Int, Never>.success(1).publisher.collect()   // [1]
    /// ```
    public func collect() -> Result<[Success], Failure>.Publisher {
        .init(result.map { [$0] })
    }

    /// Returns this publisher (`areInIncreasingOrder` is not called).
    public func min(by areInIncreasingOrder: (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns a publisher of the value, or of the failure, or of the error
    /// `areInIncreasingOrder` throws: as in Combine, it is called once, with the value
    /// twice.
    public func tryMin(
        by areInIncreasingOrder: (Success, Success) throws -> Bool
    ) -> Result<Success, any Error>.Publisher {
        .init(result.tryMap { value in
            _ = try areInIncreasingOrder(value, value)
            return value
        })
    }

    /// Returns this publisher (`areInIncreasingOrder` is not called).
    public func max(by areInIncreasingOrder: (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns a publisher of the value, or of the failure, or of the error
    /// `areInIncreasingOrder` throws: as in Combine, it is called once, with the value
    /// twice.
    public func tryMax(
        by areInIncreasingOrder: (Success, Success) throws -> Bool
    ) -> Result<Success, any Error>.Publisher {
        .init(result.tryMap { value in
            _ = try areInIncreasingOrder(value, value)
            return value
        })
    }

    /// Returns a publisher of whether the value satisfies `predicate`, or of the same
    /// failure.
    public func contains(where predicate: (Success) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(result.map(predicate))
    }

    /// Returns a publisher of whether the value satisfies `predicate`, or of the failure,
    /// or of the error `predicate` throws.
    public func tryContains(where predicate: (Success) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(result.tryMap(predicate))
    }

    /// Returns a publisher of 1, or of the same failure.
    ///
    /// ```swift
    /// let p: Result<Int, Never>.Publisher = Result<String, Never>.success("a").publisher.count()   // 1
    /// ```
    public func count() -> Result<Int, Failure>.Publisher {
        .init(result.map { _ in 1 })
    }

    /// Returns this publisher: its value is its first.
    public func first() -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns this publisher: its value is its last.
    public func last() -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns a publisher that finishes without a value, whether the result is a value
    /// or a failure (as Combine declares it: an `Empty` cannot fail).
    public func ignoreOutput() -> Empty<Success, Failure> {
        Empty()
    }

    /// Returns a publisher of `transform` applied to the value, or of the failure, or of
    /// the error `transform` throws.
    ///
    /// ```swift
    /// let p: Result<Int, any Error>.Publisher = Result<String, Never>.success("42").publisher.tryMap { try parse($0) }
    /// ```
    public func tryMap<T>(_ transform: (Success) throws -> T) -> Result<T, any Error>.Publisher {
        .init(result.tryMap(transform))
    }

    /// Returns a publisher of the same value, or of `transform` applied to the failure.
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Success, E>.Publisher {
        .init(result.mapError(transform))
    }

    /// Returns a publisher of `nextPartialResult(initialResult, value)`, or of the same
    /// failure.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Success) -> T) -> Result<T, Failure>.Publisher {
        .init(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Returns a publisher of `nextPartialResult(initialResult, value)`, or of the
    /// failure, or of the error `nextPartialResult` throws.
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Success) throws -> T
    ) -> Result<T, any Error>.Publisher {
        .init(result.tryMap { try nextPartialResult(initialResult, $0) })
    }

    /// Returns a publisher of the value, or of the failure, or of the error `predicate`
    /// throws: as in Combine, it is called once, with the value twice (its answer does
    /// not matter: one value has no duplicates).
    public func tryRemoveDuplicates(
        by predicate: (Success, Success) throws -> Bool
    ) -> Result<Success, any Error>.Publisher {
        .init(result.tryMap { value in
            _ = try predicate(value, value)
            return value
        })
    }

    /// Returns a publisher of the value, or of `output` in place of the failure.
    ///
    /// ```swift
    /// let p: Result<Int, Never>.Publisher = Result<Int, ParseError>.failure(.empty).publisher.replaceError(with: 0)   // 0
    /// ```
    public func replaceError(with output: Success) -> Result<Success, Never>.Publisher {
        switch result {
        case .success(let value): .init(.success(value))
        case .failure: .init(.success(output))
        }
    }

    /// Returns this publisher: it is never empty.
    public func replaceEmpty(with output: Success) -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns a publisher of `nextPartialResult(initialResult, value)`, the one running
    /// result of a single value, or of the failure, or of the error it throws.
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Success) throws -> T
    ) -> Result<T, any Error>.Publisher {
        .init(result.tryMap { try nextPartialResult(initialResult, $0) })
    }
}

extension Result {
    /// The result of `transform` applied to the success value, with the failure or the
    /// error `transform` throws as an untyped error.
    fileprivate func tryMap<T>(_ transform: (Success) throws -> T) -> Result<T, any Error> {
        switch self {
        case .success(let value): Result<T, any Error> { try transform(value) }
        case .failure(let error): .failure(error)
        }
    }
}
