// Combine's specializations of operators on `Publishers.Sequence`: each applies the
// operator to the sequence at once and returns another `Publishers.Sequence` of the
// result (an array, or the standard library's lazy wrapper where Combine uses one). The
// closures run now, once, not at each subscription.

extension Publishers.Sequence {
    /// Returns a publisher of the non-`nil` results of `transform` applied to each
    /// element.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[Int], Never> = ["1", "x", "3"].publisher.compactMap { Int($0) }   // 1, 3
    /// ```
    public func compactMap<T>(_ transform: (Elements.Element) -> T?) -> Publishers.Sequence<[T], Failure> {
        .init(sequence: sequence.compactMap(transform))
    }

    /// Returns a publisher of the elements after the first `count`. A negative count
    /// stops the program.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = [1, 2, 3].publisher.dropFirst()   // 2, 3
    /// ```
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if count < 0 { fatalError("Bindings: dropFirst(\(count)) needs a count of 0 or more") }
        return .init(sequence: sequence.dropFirst(count))
    }

    /// Returns a publisher of the elements that satisfy `isIncluded`.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[Int], Never> = [1, 2, 3, 4].publisher.filter { $0 > 2 }   // 3, 4
    /// ```
    public func filter(_ isIncluded: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        .init(sequence: sequence.filter(isIncluded))
    }

    /// Returns a publisher of `transform` applied to each element.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[String], Never> = [1, 2].publisher.map(String.init)   // "1", "2"
    /// ```
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        .init(sequence: sequence.map(transform))
    }

    /// Returns a publisher of the first `maxLength` elements. A negative length stops the
    /// program.
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if maxLength < 0 { fatalError("Bindings: prefix(\(maxLength)) needs a length of 0 or more") }
        return .init(sequence: sequence.prefix(maxLength))
    }

    /// Returns a publisher of the elements with each `nil` replaced by `output`.
    ///
    /// As Combine declares it, the elements keep their optional type (the general
    /// ``Publisher/replaceNil(with:)`` unwraps them):
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[Int?], Never> = [1, nil].publisher.replaceNil(with: 0)   // Optional(1), Optional(0)
    /// ```
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Elements.Element], Failure>
    where Elements.Element == T? {
        .init(sequence: sequence.map { $0 ?? output })
    }

    /// Returns a publisher of each running result of `nextPartialResult`, starting from
    /// `initialResult`.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.scan(0, +)   // 1, 3, 6
    /// ```
    public func scan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T
    ) -> Publishers.Sequence<[T], Failure> {
        var result = initialResult
        return .init(sequence: sequence.map { element in
            result = nextPartialResult(result, element)
            return result
        })
    }

    /// Returns a publisher of the same sequence that declares the failure type `E`
    /// (whatever this one declares, as in Combine).
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        .init(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Returns a publisher of the elements that differ from the one before them.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[Int], Never> = [1, 1, 2, 1].publisher.removeDuplicates()   // 1, 2, 1
    /// ```
    public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
        var result: [Elements.Element] = []
        for element in sequence where element != result.last {
            result.append(element)
        }
        return .init(sequence: result)
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// Returns a publisher of `elements`, then this sequence.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[Int], Never> = [3].publisher.prepend(1, 2)   // 1, 2, 3
    /// ```
    public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// Returns a publisher of the elements of `elements`, then this sequence.
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where S.Element == Elements.Element {
        var result = Elements(elements)
        result.append(contentsOf: sequence)
        return .init(sequence: result)
    }

    /// Returns a publisher of `publisher`'s sequence, then this one.
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        prepend(publisher.sequence)
    }

    /// Returns a publisher of this sequence, then `elements`.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[Int], Never> = [1].publisher.append(2, 3)   // 1, 2, 3
    /// ```
    public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// Returns a publisher of this sequence, then the elements of `elements`.
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where S.Element == Elements.Element {
        var result = sequence
        result.append(contentsOf: elements)
        return .init(sequence: result)
    }

    /// Returns a publisher of this sequence, then `publisher`'s.
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
