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
    @inlinable public init(rawValue: UInt) { self.rawValue = rawValue }

    // Computed and inlinable rather than `static let`: a stored static is reached
    // through a lazy-initialisation check, which subscribing paid for at each use.

    /// Changes carry the new value.
    @inlinable public static var new: KeyValueObservingOptions { KeyValueObservingOptions(rawValue: 0x01) }
    /// Changes carry the old value.
    @inlinable public static var old: KeyValueObservingOptions { KeyValueObservingOptions(rawValue: 0x02) }
    /// Notify once, at once, with the current value.
    @inlinable public static var initial: KeyValueObservingOptions { KeyValueObservingOptions(rawValue: 0x04) }
    /// Notify before each change too.
    @inlinable public static var prior: KeyValueObservingOptions { KeyValueObservingOptions(rawValue: 0x08) }
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
