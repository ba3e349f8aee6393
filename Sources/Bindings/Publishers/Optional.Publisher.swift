extension Optional {
    /// A publisher that publishes the wrapped value to each subscriber once, then
    /// finishes; or finishes at once when there is no value. As in Combine.
    ///
    /// ```swift
    /// let c = Optional(3).publisher.sink { print($0) }   // prints 3
    /// let d = Int?.none.publisher.sink { print($0) }     // prints nothing, finishes
    /// ```
    ///
    /// Unlike ``Just``, it may publish nothing. Like `Just`, it waits for a request before
    /// it delivers the value (a request of `.none` stops the program, as in Combine).
    public var publisher: Optional<Wrapped>.Publisher {
        Publisher(self)
    }

    /// A publisher that publishes an optional's value to each subscriber once, then
    /// finishes, or only finishes when it is `nil`, as in Combine. Make one with an
    /// optional's `publisher`.
    ///
    /// The operators that Combine computes at once on it (`map`, `filter`, `compactMap`,
    /// `dropFirst`, `prefix(_:)`, `removeDuplicates`, `scan`) return another
    /// `Optional.Publisher`.
    public struct Publisher: Bindings.Publisher {
        /// The kind of value published: the type the optional wraps.
        public typealias Output = Wrapped
        /// It cannot fail.
        public typealias Failure = Never

        /// The value to deliver to each subscriber, or `nil` to finish without one.
        public let output: Wrapped?

        /// Creates a publisher of `output`'s value, if it has one.
        public init(_ output: Wrapped?) {
            self.output = output
        }

        /// Gives `subscriber` a subscription that delivers the value and `.finished` on
        /// its first request; or, without a value, an empty subscription and `.finished`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            guard let output else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            subscriber.receive(
                subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Optional"))
        }
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}

// Combine's specializations: the result is known at once, so each of these operators
// returns another `Optional.Publisher` (its closure runs now, not at subscription).

extension Optional.Publisher where Wrapped: Equatable {
    /// Returns this publisher: one value has no duplicates.
    public func removeDuplicates() -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher {
    /// Returns a publisher of the non-`nil` result of `transform` applied to the value.
    ///
    /// ```swift
    /// let p: Optional<Int>.Publisher = Optional("7").publisher.compactMap { Int($0) }   // 7
    /// ```
    public func compactMap<T>(_ transform: (Wrapped) -> T?) -> Optional<T>.Publisher {
        .init(output.flatMap(transform))
    }

    /// Returns a publisher of nothing, unless `count` is 0. A negative count stops the
    /// program.
    public func dropFirst(_ count: Int = 1) -> Optional<Wrapped>.Publisher {
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if count < 0 { fatalError("Bindings: dropFirst(\(count)) needs a count of 0 or more") }
        return .init(count == 0 ? output : nil)
    }

    /// Returns a publisher of the value if it satisfies `isIncluded`, else of nothing.
    ///
    /// ```swift
    /// let p: Optional<Int>.Publisher = Optional(4).publisher.filter { $0.isMultiple(of: 2) }   // 4
    /// ```
    public func filter(_ isIncluded: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        .init(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// Returns a publisher of `transform` applied to the value.
    ///
    /// ```swift
    /// let p: Optional<String>.Publisher = Optional(1).publisher.map(String.init)   // "1"
    /// ```
    public func map<T>(_ transform: (Wrapped) -> T) -> Optional<T>.Publisher {
        .init(output.map(transform))
    }

    /// Returns this publisher when `maxLength` is more than 0, else a publisher of
    /// nothing. A negative length stops the program.
    public func prefix(_ maxLength: Int) -> Optional<Wrapped>.Publisher {
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if maxLength < 0 { fatalError("Bindings: prefix(\(maxLength)) needs a length of 0 or more") }
        return .init(maxLength > 0 ? output : nil)
    }

    /// Returns this publisher: one value has no duplicates.
    public func removeDuplicates(by predicate: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns a publisher of `nextPartialResult(initialResult, value)`, the one running
    /// result of a single value.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Wrapped) -> T) -> Optional<T>.Publisher {
        .init(output.map { nextPartialResult(initialResult, $0) })
    }
}

// The specializations Combine declares for the reducing and error operators. As in
// Combine, each maps the value when there is one and publishes nothing otherwise:
// `count()`, `contains`, `allSatisfy` and `reduce` of an empty one finish without a
// value, and only `collect()` (`[]`) and `replaceEmpty` publish one.

extension Optional.Publisher where Wrapped: Equatable {
    /// Returns a publisher of whether the value equals `output`, or of nothing when there
    /// is no value.
    ///
    /// ```swift
    /// let p: Optional<Bool>.Publisher = Optional(3).publisher.contains(3)   // true
    /// ```
    public func contains(_ output: Wrapped) -> Optional<Bool>.Publisher {
        .init(self.output.map { $0 == output })
    }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// Returns this publisher: the minimum of at most one value is that value.
    public func min() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns this publisher: the maximum of at most one value is that value.
    public func max() -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher {
    /// Returns a publisher of whether the value satisfies `predicate`, or of nothing when
    /// there is no value.
    public func allSatisfy(_ predicate: (Wrapped) -> Bool) -> Optional<Bool>.Publisher {
        .init(output.map(predicate))
    }

    /// Returns a publisher of the value in an array, or of `[]` when there is none.
    ///
    /// ```swift
    /// let p: Optional<[Int]>.Publisher = Int?.none.publisher.collect()   // []
    /// ```
    public func collect() -> Optional<[Wrapped]>.Publisher {
        .init(output.map { [$0] } ?? [])
    }

    /// Returns this publisher (`areInIncreasingOrder` is not called).
    public func min(by areInIncreasingOrder: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns this publisher (`areInIncreasingOrder` is not called).
    public func max(by areInIncreasingOrder: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns a publisher of whether the value satisfies `predicate`, or of nothing when
    /// there is no value.
    public func contains(where predicate: (Wrapped) -> Bool) -> Optional<Bool>.Publisher {
        .init(output.map(predicate))
    }

    /// Returns a publisher of 1 when there is a value, or of nothing when there is none.
    ///
    /// ```swift
    /// let p: Optional<Int>.Publisher = Optional("a").publisher.count()   // 1
    /// ```
    public func count() -> Optional<Int>.Publisher {
        .init(output.map { _ in 1 })
    }

    /// Returns a publisher of the value unless it satisfies `predicate`.
    public func drop(while predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        .init(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// Returns this publisher: its value, if any, is its first.
    public func first() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns a publisher of the value if it satisfies `predicate`.
    public func first(where predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        .init(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// Returns this publisher: its value, if any, is its last.
    public func last() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns a publisher of the value if it satisfies `predicate`.
    public func last(where predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        .init(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// Returns a publisher that finishes without the value.
    public func ignoreOutput() -> Empty<Wrapped, Never> {
        Empty()
    }

    /// Returns a publisher of the value if `index` is 0. A negative index stops the
    /// program.
    public func output(at index: Int) -> Optional<Wrapped>.Publisher {
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if index < 0 { fatalError("Bindings: output(at: \(index)) needs an index of 0 or more (0 is the first element)") }
        return .init(output.flatMap { index == 0 ? $0 : nil })
    }

    /// Returns a publisher of the value if `range` contains position 0. A range that
    /// starts below 0 stops the program.
    public func output<R: RangeExpression>(in range: R) -> Optional<Wrapped>.Publisher where R.Bound == Int {
        let positions = range.relative(to: 0..<Int.max)
        // `fatalError`, not `precondition`: the message must survive -O builds.
        if positions.lowerBound < 0 {
            fatalError("Bindings: output(in:) needs a range of positions 0 or more (0 is the first element), not \(positions)")
        }
        return .init(output.flatMap { positions.contains(0) ? $0 : nil })
    }

    /// Returns a publisher of the value if it satisfies `predicate`.
    public func prefix(while predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        .init(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// Returns a publisher of `nextPartialResult(initialResult, value)`, or of nothing
    /// when there is no value (as Combine declares it; the general `reduce` would publish
    /// `initialResult`).
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Wrapped) -> T) -> Optional<T>.Publisher {
        .init(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Returns this publisher: it cannot fail.
    public func replaceError(with output: Wrapped) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns a `Just` of the value, or of `output` when there is none.
    ///
    /// ```swift
    /// let p: Just<Int> = Int?.none.publisher.replaceEmpty(with: 0)   // 0
    /// ```
    public func replaceEmpty(with output: Wrapped) -> Just<Wrapped> {
        Just(self.output ?? output)
    }
}
