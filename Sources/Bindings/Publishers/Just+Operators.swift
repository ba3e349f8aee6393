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
