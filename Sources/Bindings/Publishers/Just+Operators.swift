// Combine's specializations of operators on `Just`: the result is known at once, so
// each returns a `Just`, or an `Optional.Publisher` where the value may be dropped, a
// `Result.Publisher` where a failure type appears (`setFailureType`) or where Combine
// declares one (`scan`), a `Publishers.Sequence` where values are added. The closures
// run now, once, not at each subscription.

extension Just where Output: Equatable {
    /// Returns this publisher: one value has no duplicates.
    public func removeDuplicates() -> Just<Output> {
        self
    }
}

extension Just {
    /// Returns a publisher of the non-`nil` result of `transform` applied to the value.
    ///
    /// ```swift
    /// let p: Optional<Int>.Publisher = Just("7").compactMap { Int($0) }   // 7
    /// ```
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        .init(transform(output))
    }

    /// Returns a publisher of nothing, unless `count` is 0. A negative count stops the
    /// program.
    ///
    /// ```swift
    /// let p: Optional<Int>.Publisher = Just(1).dropFirst()   // finishes without a value
    /// ```
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if count < 0 { fatalError("Bindings: dropFirst(\(count)) needs a count of 0 or more") }
        return .init(count == 0 ? output : nil)
    }

    /// Returns a publisher of the value if it satisfies `isIncluded`, else of nothing.
    ///
    /// ```swift
    /// let p: Optional<Int>.Publisher = Just(3).filter { $0 > 5 }   // finishes without a value
    /// ```
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(isIncluded(output) ? output : nil)
    }

    /// Returns a `Just` of `transform` applied to the value.
    ///
    /// ```swift
    /// let p: Just<String> = Just(1).map(String.init)   // "1"
    /// ```
    public func map<T>(_ transform: (Output) -> T) -> Just<T> {
        Just<T>(transform(output))
    }

    /// Returns a publisher of the value when `maxLength` is more than 0, else of nothing.
    /// A negative length stops the program.
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if maxLength < 0 { fatalError("Bindings: prefix(\(maxLength)) needs a length of 0 or more") }
        return .init(maxLength > 0 ? output : nil)
    }

    /// Returns a publisher of `elements`, then the value.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2)   // 1, 2, 3
    /// ```
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        prepend(elements)
    }

    /// Returns a publisher of the elements of `elements`, then the value.
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
    where S.Element == Output {
        Publishers.Sequence(sequence: Array(elements) + [output])
    }

    /// Returns a publisher of the value, then `elements`.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[Int], Never> = Just(1).append(2, 3)   // 1, 2, 3
    /// ```
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        append(elements)
    }

    /// Returns a publisher of the value, then the elements of `elements`.
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
    where S.Element == Output {
        Publishers.Sequence(sequence: [output] + Array(elements))
    }

    /// Returns this publisher: one value has no duplicates.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Returns a publisher of `nextPartialResult(initialResult, value)`, the one running
    /// result of a single value (a `Result.Publisher`, as Combine declares it).
    ///
    /// ```swift
    /// let p: Result<Int, Never>.Publisher = Just(2).scan(10, +)   // 12
    /// ```
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        .init(.success(nextPartialResult(initialResult, output)))
    }

    /// Returns a publisher of the same value that declares the failure type `E`.
    ///
    /// ```swift
    /// let p: Result<Int, MyError>.Publisher = Just(1).setFailureType(to: MyError.self)
    /// ```
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        .init(.success(output))
    }
}

// The specializations Combine declares for the reducing, `try` and error operators: the
// one value settles each at once. A `try` closure's error gives a failing
// `Result.Publisher`.

extension Just where Output: Comparable {
    /// Returns this publisher: the minimum of one value is that value.
    public func min() -> Just<Output> {
        self
    }

    /// Returns this publisher: the maximum of one value is that value.
    public func max() -> Just<Output> {
        self
    }
}

extension Just where Output: Equatable {
    /// Returns a `Just` of whether the value equals `output`.
    ///
    /// ```swift
    /// let p: Just<Bool> = Just(3).contains(3)   // true
    /// ```
    public func contains(_ output: Output) -> Just<Bool> {
        Just<Bool>(self.output == output)
    }
}

extension Just {
    /// Returns a `Just` of whether the value satisfies `predicate`.
    ///
    /// ```swift
    /// let p: Just<Bool> = Just(4).allSatisfy { $0.isMultiple(of: 2) }   // true
    /// ```
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Returns a publisher of whether the value satisfies `predicate`, or of the error it
    /// throws.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try predicate(output) })
    }

    /// Returns a `Just` of the value in an array.
    ///
    /// ```swift
    /// let p: Just<[Int]> = Just(1).collect()   // [1]
    /// ```
    public func collect() -> Just<[Output]> {
        Just<[Output]>([output])
    }

    /// Returns this publisher: the minimum of one value is that value (`areInIncreasingOrder`
    /// is not called).
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Returns this publisher: the maximum of one value is that value (`areInIncreasingOrder`
    /// is not called).
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Returns a `Just` of whether the value satisfies `predicate`.
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Returns a publisher of whether the value satisfies `predicate`, or of the error it
    /// throws.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try predicate(output) })
    }

    /// Returns a `Just` of 1, the number of values.
    ///
    /// ```swift
    /// let p: Just<Int> = Just("a").count()   // 1
    /// ```
    public func count() -> Just<Int> {
        Just<Int>(1)
    }

    /// Returns a publisher of nothing if the value satisfies `predicate`, else of the
    /// value.
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(predicate(output) ? nil : output)
    }

    /// Returns this publisher: its value is its first.
    public func first() -> Just<Output> {
        self
    }

    /// Returns a publisher of the value if it satisfies `predicate`, else of nothing.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(predicate(output) ? output : nil)
    }

    /// Returns this publisher: its value is its last.
    public func last() -> Just<Output> {
        self
    }

    /// Returns a publisher of the value if it satisfies `predicate`, else of nothing.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(predicate(output) ? output : nil)
    }

    /// Returns a publisher that finishes without the value.
    public func ignoreOutput() -> Empty<Output, Never> {
        Empty()
    }

    /// Returns a publisher of `transform` applied to the value, or of the error it throws
    /// (a `Result.Publisher`, as Combine declares it).
    ///
    /// ```swift
    /// let p: Result<Int, any Error>.Publisher = Just("42").tryMap { try parse($0) }
    /// ```
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        .init(Result { try transform(output) })
    }

    /// Returns a publisher of the same value that declares the failure type `E`
    /// (`transform` is never called: a `Just` cannot fail).
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
        .init(.success(output))
    }

    /// Returns a publisher of the value if `index` is 0, else of nothing. A negative
    /// index stops the program.
    public func output(at index: Int) -> Optional<Output>.Publisher {
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if index < 0 { fatalError("Bindings: output(at: \(index)) needs an index of 0 or more (0 is the first element)") }
        return .init(index == 0 ? output : nil)
    }

    /// Returns a publisher of the value if `range` starts at 0, else of nothing. As in
    /// Combine, a range that starts at 0 publishes the value even when it is empty
    /// (`0..<0`).
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        .init(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// Returns a publisher of the value if it satisfies `predicate`, else of nothing.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(predicate(output) ? output : nil)
    }

    /// Returns a publisher of `nextPartialResult(initialResult, value)`.
    ///
    /// ```swift
    /// let p: Result<Int, Never>.Publisher = Just(2).reduce(10, +)   // 12
    /// ```
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        .init(.success(nextPartialResult(initialResult, output)))
    }

    /// Returns a publisher of `nextPartialResult(initialResult, value)`, or of the error
    /// it throws.
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        .init(Result { try nextPartialResult(initialResult, output) })
    }

    /// Returns a publisher of the value, or of the error that `predicate` throws. As in
    /// Combine, `predicate` is called once, with the value twice (its answer does not
    /// matter: one value has no duplicates).
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        .init(Result {
            _ = try predicate(output, output)
            return output
        })
    }

    /// Returns this publisher: it cannot fail.
    public func replaceError(with output: Output) -> Just<Output> {
        self
    }

    /// Returns this publisher: it is never empty.
    public func replaceEmpty(with output: Output) -> Just<Output> {
        self
    }

    /// Returns a publisher of `nextPartialResult(initialResult, value)`, the one running
    /// result of a single value, or of the error it throws.
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        .init(Result { try nextPartialResult(initialResult, output) })
    }
}
