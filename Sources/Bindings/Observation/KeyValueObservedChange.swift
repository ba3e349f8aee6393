/// One notification of an observation, as Foundation's `NSKeyValueObservedChange`.
///
/// ```swift
/// person.observe(\.lastName, options: [.old, .new]) { _, change in
///     // change.kind == .setting, change.oldValue == "Lovelace", change.newValue == "Byron"
/// }
/// ```
/// For an Optional property, a `nil` value arrives as `.some(nil)`; a value that was not
/// asked for (no `.old`, or `.new`) is `nil`.
public struct KeyValueObservedChange<Value> {
    /// The kind of the change.
    public let kind: KeyValueChange
    /// The value after the change, when `.new` was asked for (and not a prior notice).
    public let newValue: Value?
    /// The value before the change, when `.old` was asked for.
    public let oldValue: Value?
    /// The indexes of an indexed-collection change; `nil` for `.setting`.
    public let indexes: RangeSet<Int>?
    /// `true` for the notice sent before a change (`.prior`).
    public let isPrior: Bool

    /// Creates a change, for tests and adapters.
    @inlinable
    public init(
        kind: KeyValueChange, newValue: Value?, oldValue: Value?,
        indexes: RangeSet<Int>? = nil, isPrior: Bool = false
    ) {
        self.kind = kind
        self.newValue = newValue
        self.oldValue = oldValue
        self.indexes = indexes
        self.isPrior = isPrior
    }
}

extension KeyValueObservedChange: Equatable where Value: Equatable {}
extension KeyValueObservedChange: Sendable where Value: Sendable {}
