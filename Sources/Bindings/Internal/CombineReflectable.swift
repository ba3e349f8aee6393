/// How Combine's subscriptions and operator subscribers present themselves to `print`,
/// `dump`, the debugger and playgrounds: `description` is the operator's name ("Map",
/// "Just"), `playgroundDescription` is that same name, and `customMirror` shows no
/// children unless the type gives its own (Combine's `Scan` shows its running result,
/// `Just` its value, and so on).
///
/// Conforming only needs a `description`, so that each operator says what it is in one
/// line, next to its code. `@usableFromInline`, for the inlinable operators' subscribers.
@usableFromInline
protocol CombineReflectable: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {}

extension CombineReflectable {
    /// No children, as Combine's subscriptions reflect themselves by default.
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: EmptyCollection<Mirror.Child>()) }

    /// The description, as in Combine.
    @usableFromInline
    var playgroundDescription: Any { description }
}
