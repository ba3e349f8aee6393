/// Holds a non-`Sendable` value so that test threads can share it.
///
/// `@unchecked Sendable`: nothing guards `value`. Only for values whose API under test is
/// documented thread-safe (subjects, `cancel()`), for one thread at a time, or to break a
/// model's isolation on purpose (the misuse a test is about).
package struct UncheckedBox<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}

/// A weak reference that test threads can share, to see an object go.
///
/// `@unchecked Sendable`: a weak reference is loaded and cleared atomically by the
/// runtime, and `object` is never reassigned.
package final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    package private(set) weak var object: Object?
    package init(_ object: Object) { self.object = object }
}
