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
    /// ```swift
    /// static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
    ///     key == \Thermometer.reading ? [\Thermometer.celsius] : []
    /// }
    /// ```
    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath>
}

extension KeyValueObservable {
    /// No key path affects another unless the type says so.
    public static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> { [] }
}
