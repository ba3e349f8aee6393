/// A class whose properties can be observed by key path, as `NSObject` subclasses can
/// with Foundation's key-value observing, but with no base class and on Linux.
///
/// Conforming costs one line; mark the stored properties to observe `@Observed`:
///
/// ```swift
/// final class Person: KeyValueObservable {
///     @Observed var firstName = "Ada"
///     @Observed var lastName = "Lovelace"
///     var fullName: String { "\(firstName) \(lastName)" }   // observable too
/// }
/// let token = Person().observe(\.fullName, options: [.new]) { person, change in
///     print(change.newValue!)
/// }
/// ```
public protocol KeyValueObservable: AnyObject, ReactiveExtensionProvider {
    /// The key paths whose changes also change the value at `key`, for dependencies that
    /// tracking cannot see (storage that is not `@Observed`). Default: none.
    ///
    /// Followed transitively, as Foundation's KVO does: if `a` declares `b` and `b`
    /// declares `c`, a change of `c` notifies the observers of `a`, once per change
    /// (also when `c` reaches `a` by several paths; a cycle of declarations is harmless).
    ///
    /// ```swift
    /// static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
    ///     key == \Thermometer.reading ? [\Thermometer.celsius] : []
    /// }
    /// ```
    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath>

    /// What ends the model's observations when it deinitialises, for a model whose
    /// observed key paths read none of its own `@Observed` storage (hand-notified values,
    /// or other objects' properties only; see ``ObservationAnchor``).
    /// Default: no anchor; such observations then end at a later clean-up.
    ///
    /// ```swift
    /// final class Thermometer: KeyValueObservable {
    ///     let observationAnchor = ObservationAnchor()
    ///     private var storage = 20.0   // notified by hand
    /// }
    /// ```
    var observationAnchor: ObservationAnchor { get }
}

extension KeyValueObservable {
    /// No key path affects another unless the type says so.
    public static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> { [] }

    /// No anchor: the `@Observed` storage that a key path reads ends its observations
    /// with the model; declare `let observationAnchor = ObservationAnchor()` in a model
    /// whose observed key paths read none of it.
    public var observationAnchor: ObservationAnchor { .unanchored }
}
