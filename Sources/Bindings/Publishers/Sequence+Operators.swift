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

// The specializations Combine declares for the reducing, `try` and selecting operators:
// the answer is computed from the sequence at once, into a `Result.Publisher` (it keeps
// the failure type), an `Optional.Publisher` (where Combine declares one, for sequences
// that cannot fail), a `Just`, or another `Publishers.Sequence`.

extension Publishers.Sequence where Failure == Never {
    /// Returns a publisher of the minimum element by `areInIncreasingOrder`, or of
    /// nothing for an empty sequence.
    ///
    /// ```swift
    /// let p: Optional<String>.Publisher = ["bb", "a", "ccc"].publisher.min { $0.count < $1.count }   // "a"
    /// ```
    public func min(
        by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        .init(sequence.min(by: areInIncreasingOrder))
    }

    /// Returns a publisher of the maximum element by `areInIncreasingOrder`, or of
    /// nothing for an empty sequence.
    public func max(
        by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        .init(sequence.max(by: areInIncreasingOrder))
    }

    /// Returns a publisher of the first element that satisfies `predicate`, or of
    /// nothing.
    public func first(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        .init(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence {
    /// Returns a publisher of whether every element satisfies `predicate`.
    ///
    /// ```swift
    /// let p: Result<Bool, Never>.Publisher = [2, 4].publisher.allSatisfy { $0.isMultiple(of: 2) }   // true
    /// ```
    public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(.success(sequence.allSatisfy(predicate)))
    }

    /// Returns a publisher of whether every element satisfies `predicate`, or of the
    /// error it throws.
    public func tryAllSatisfy(_ predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try sequence.allSatisfy(predicate) })
    }

    /// Returns a publisher of the elements in one array.
    ///
    /// ```swift
    /// let p: Result<[Int], Never>.Publisher = (1...3).publisher.collect()   // [1, 2, 3]
    /// ```
    public func collect() -> Result<[Elements.Element], Failure>.Publisher {
        .init(.success(Array(sequence)))
    }

    /// Returns a publisher of whether an element satisfies `predicate`.
    public func contains(where predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(.success(sequence.contains(where: predicate)))
    }

    /// Returns a publisher of whether an element satisfies `predicate`, or of the error
    /// it throws.
    public func tryContains(where predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try sequence.contains(where: predicate) })
    }

    /// Returns a publisher of the elements from the first that does not satisfy
    /// `predicate` on.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = [1, 5, 2].publisher.drop { $0 < 3 }   // 5, 2
    /// ```
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        .init(sequence: sequence.drop(while: predicate))
    }

    /// Returns a publisher that finishes without the elements.
    public func ignoreOutput() -> Empty<Elements.Element, Failure> {
        Empty()
    }

    /// Returns a publisher of the elements before the first that does not satisfy
    /// `predicate`.
    public func prefix(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<[Elements.Element], Failure> {
        .init(sequence: sequence.prefix(while: predicate))
    }

    /// Returns a publisher of the elements folded into `initialResult` with
    /// `nextPartialResult`.
    ///
    /// ```swift
    /// let p: Result<Int, Never>.Publisher = [1, 2, 3].publisher.reduce(0, +)   // 6
    /// ```
    public func reduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T
    ) -> Result<T, Failure>.Publisher {
        .init(.success(sequence.reduce(initialResult, nextPartialResult)))
    }

    /// Returns a publisher of the elements folded into `initialResult` with
    /// `nextPartialResult`, or of the error it throws.
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) throws -> T
    ) -> Result<T, any Error>.Publisher {
        .init(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Returns a publisher of whether the sequence contains `output`.
    ///
    /// ```swift
    /// let p: Result<Bool, Never>.Publisher = [1, 2].publisher.contains(2)   // true
    /// ```
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        .init(.success(sequence.contains(output)))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// Returns a publisher of the minimum element, or of nothing for an empty sequence.
    ///
    /// ```swift
    /// let p: Optional<Int>.Publisher = [3, 1, 2].publisher.min()   // 1
    /// ```
    public func min() -> Optional<Elements.Element>.Publisher {
        .init(sequence.min())
    }

    /// Returns a publisher of the maximum element, or of nothing for an empty sequence.
    public func max() -> Optional<Elements.Element>.Publisher {
        .init(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// Returns a publisher of the first element, or of nothing for an empty collection.
    ///
    /// ```swift
    /// let p: Optional<Int>.Publisher = [3, 1, 2].publisher.first()   // 3
    /// ```
    public func first() -> Optional<Elements.Element>.Publisher {
        .init(sequence.first)
    }

    /// Returns a publisher of the element at `index`, or of nothing if the collection has
    /// no such index.
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        .init(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// Returns a publisher of the number of elements.
    public func count() -> Result<Int, Failure>.Publisher {
        .init(.success(sequence.count))
    }

    /// Returns a publisher of the elements at the positions in `range` that the
    /// collection has.
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        .init(sequence: Array(sequence[range.clamped(to: sequence.startIndex..<sequence.endIndex)]))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// Returns a publisher of the last element, or of nothing for an empty collection.
    ///
    /// ```swift
    /// let p: Optional<Int>.Publisher = [3, 1, 2].publisher.last()   // 2
    /// ```
    public func last() -> Optional<Elements.Element>.Publisher {
        .init(sequence.last)
    }

    /// Returns a publisher of the last element that satisfies `predicate`, or of nothing.
    public func last(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        .init(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// Returns a publisher of the element at `index`, or of nothing if the collection has
    /// no such index.
    ///
    /// ```swift
    /// let p: Optional<String>.Publisher = ["a", "b"].publisher.output(at: 1)   // "b"
    /// ```
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        .init(sequence.indices.contains(index) ? sequence[index] : nil)
    }

    /// Returns a `Just` of the number of elements.
    ///
    /// ```swift
    /// let p: Just<Int> = [1, 2].publisher.count()   // 2
    /// ```
    public func count() -> Just<Int> {
        Just(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// Returns a publisher of the elements at the positions in `range` that the
    /// collection has.
    ///
    /// ```swift
    /// let p: Publishers.Sequence<[Int], Never> = [1, 2, 3, 4].publisher.output(in: 1..<3)   // 2, 3
    /// ```
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        .init(sequence: Array(sequence[range.clamped(to: sequence.startIndex..<sequence.endIndex)]))
    }

    /// Returns a publisher of the number of elements.
    ///
    /// ```swift
    /// let p: Result<Int, Never>.Publisher = [1, 2].publisher.count()   // 2
    /// ```
    public func count() -> Result<Int, Failure>.Publisher {
        .init(.success(sequence.count))
    }
}
