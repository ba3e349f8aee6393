/// One change of an ``ObservableArray``: the array after it, and the edits that lead
/// there from the array before it.
///
/// The edits are meant to be applied in order: each index is valid in the array as the
/// edits before it left it. `Array.applying(_:)` replays them, so a copy kept
/// up to date with every change always equals the observed array:
///
/// ```swift
/// let change = CollectionChange(collection: ["a", "b"], changes: [.insert("b", at: 1)])
/// ["a"].applying(change)   // ["a", "b"], which is change.collection
/// ```
public struct CollectionChange<Element> {
    /// One edit of a ``CollectionChange``, with its index as it is when the edits before
    /// it have been applied.
    public enum Edit {
        /// `element` was inserted at `index`, which may be the end.
        case insert(Element, at: Int)
        /// The element at `index` was removed.
        case delete(at: Int)
        /// The element at `index` was replaced by `element`.
        case update(Element, at: Int)
        /// The element at `from` was removed, then inserted at `to` (an index of the
        /// array without it).
        case move(from: Int, to: Int)
    }

    /// The collection after the change.
    public var collection: [Element]

    /// The edits, in the order to apply them.
    public var changes: [Edit]

    /// Creates a change: `collection` is the result of applying `changes`, in order, to
    /// the collection before it.
    ///
    /// ```swift
    /// CollectionChange(collection: ["b"], changes: [.delete(at: 0)])   // ["a", "b"] -> ["b"]
    /// ```
    @inlinable
    public init(collection: [Element], changes: [Edit]) {
        self.collection = collection
        self.changes = changes
    }

    /// The change that brings an empty array to `elements`: one insertion per element,
    /// in order (what a new subscriber of an ``ObservableArray`` receives first).
    static func fromEmpty(to elements: [Element]) -> CollectionChange {
        var edits: [Edit] = []
        edits.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() { edits.append(.insert(element, at: index)) }
        return CollectionChange(collection: elements, changes: edits)
    }
}

extension CollectionChange.Edit: CustomDebugStringConvertible {
    /// The edit as it is written in source, such as `.insert("a", at: 0)`, so that
    /// `print(change.changes)` prints `[.insert("a", at: 0)]`.
    public var debugDescription: String {
        switch self {
        case .insert(let element, let index): ".insert(\(String(reflecting: element)), at: \(index))"
        case .delete(let index): ".delete(at: \(index))"
        case .update(let element, let index): ".update(\(String(reflecting: element)), at: \(index))"
        case .move(let from, let to): ".move(from: \(from), to: \(to))"
        }
    }
}

extension CollectionChange: CustomDebugStringConvertible {
    /// The change as it is written in source:
    /// `CollectionChange(collection: ["a"], changes: [.insert("a", at: 0)])`.
    public var debugDescription: String {
        "CollectionChange(collection: \(String(reflecting: collection)), changes: \(String(reflecting: changes)))"
    }
}

/// Compared and hashed by their cases and payloads.
extension CollectionChange.Edit: Equatable where Element: Equatable {}
/// Compared and hashed by their cases and payloads.
extension CollectionChange.Edit: Hashable where Element: Hashable {}
extension CollectionChange.Edit: Sendable where Element: Sendable {}

/// Equal when both the collections and the edits are.
extension CollectionChange: Equatable where Element: Equatable {}
/// Hashes the collection and the edits.
extension CollectionChange: Hashable where Element: Hashable {}
extension CollectionChange: Sendable where Element: Sendable {}

extension Array {
    /// The array with `change`'s edits applied, in order (a move removes the element at
    /// `from`, then inserts it at `to`).
    ///
    /// Applied to the collection as it was before the change, the result equals
    /// `change.collection`: a mirror that applies every change an ``ObservableArray``
    /// publishes stays equal to it.
    ///
    /// ```swift
    /// var mirror: [String] = []
    /// let c = tasks.changes.sink { mirror = mirror.applying($0) }   // mirror == tasks.elements
    /// ```
    ///
    /// An index out of range stops the program, as with `Array`'s own methods.
    public func applying(_ change: CollectionChange<Element>) -> [Element] {
        var result = self
        for edit in change.changes {
            switch edit {
            case .insert(let element, let index): result.insert(element, at: index)
            case .delete(let index): result.remove(at: index)
            case .update(let element, let index): result[index] = element
            case .move(let from, let to): result.insert(result.remove(at: from), at: to)
            }
        }
        return result
    }
}
