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
