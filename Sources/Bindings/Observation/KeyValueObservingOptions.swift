/// The values and notifications an observation asks for, as Foundation's
/// `NSKeyValueObservingOptions`.
///
/// `.new` and `.old` only decide which values a change carries; `.initial` sends one
/// notification with the current value before `observe` returns; `.prior` sends a
/// separate notification before each change, with `isPrior == true`.
public struct KeyValueObservingOptions: OptionSet, Sendable, Hashable {
    /// The raw bits of the options (Foundation's values).
    public let rawValue: UInt

    /// Creates options from their raw bits (Foundation's values).
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Changes carry the new value.
    public static let new = KeyValueObservingOptions(rawValue: 0x01)
    /// Changes carry the old value.
    public static let old = KeyValueObservingOptions(rawValue: 0x02)
    /// Notify once, at once, with the current value.
    public static let initial = KeyValueObservingOptions(rawValue: 0x04)
    /// Notify before each change too.
    public static let prior = KeyValueObservingOptions(rawValue: 0x08)
}

/// The kind of a change, as Foundation's `NSKeyValueChange`.
public enum KeyValueChange: UInt, Sendable, Hashable {
    /// The value was set (every `@Observed` set, equal values included).
    case setting = 1
    /// Elements were inserted into an indexed collection at `indexes`.
    case insertion = 2
    /// Elements were removed from an indexed collection at `indexes`.
    case removal = 3
    /// Elements of an indexed collection were replaced at `indexes`.
    case replacement = 4
}
