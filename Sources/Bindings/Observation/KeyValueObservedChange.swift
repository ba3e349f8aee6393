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
    @inlinable
    public var indexes: RangeSet<Int>? { indexBox?.indexes }
    /// `true` for the notice sent before a change (`.prior`).
    public let isPrior: Bool

    /// The indexes, in a box: `RangeSet`'s layout is only known at run time, and a change
    /// that held one inline could not be built or copied without looking it up (most
    /// changes are sets, with no indexes).
    @usableFromInline let indexBox: ChangeIndexes?

    /// Creates a change, for tests and adapters.
    @inlinable
    public init(
        kind: KeyValueChange, newValue: Value?, oldValue: Value?,
        indexes: RangeSet<Int>? = nil, isPrior: Bool = false
    ) {
        self.kind = kind
        self.newValue = newValue
        self.oldValue = oldValue
        self.indexBox = indexes.map(ChangeIndexes.init)
        self.isPrior = isPrior
    }
}

extension KeyValueObservedChange {
    /// A `.setting` change: the notification of a set, built with no `RangeSet` at all.
    @inlinable
    init(setting newValue: Value?, oldValue: Value?, isPrior: Bool) {
        kind = .setting
        self.newValue = newValue
        self.oldValue = oldValue
        indexBox = nil
        self.isPrior = isPrior
    }
}

/// The indexes of a ``KeyValueObservedChange``, boxed (see `indexBox`).
@usableFromInline
final class ChangeIndexes: Sendable {
    @usableFromInline let indexes: RangeSet<Int>

    @usableFromInline
    init(_ indexes: RangeSet<Int>) { self.indexes = indexes }
}

extension KeyValueObservedChange: Equatable where Value: Equatable {
    /// Two changes are equal when their kinds, values, indexes and prior flags are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.newValue == rhs.newValue && lhs.oldValue == rhs.oldValue
            && lhs.indexes == rhs.indexes && lhs.isPrior == rhs.isPrior
    }
}

extension KeyValueObservedChange: Sendable where Value: Sendable {}
