#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An object for leak checks: captured by a closure (or held by an object) under test, a
/// weak reference to it tells whether the closure was released, and its ``LiveCounter``,
/// if any, how many such objects are still alive. ``value`` makes it a target to write
/// (`Assign`, a sink's closure).
///
/// `@unchecked Sendable`: `value` is unguarded; it is only written by one thread at a time
/// (a subject's serialised deliveries) or never shared, so that the thread sanitizer
/// reports any delivery that breaks that.
package final class Canary: @unchecked Sendable {
    package var value = 0
    package let counter: LiveCounter?

    package init(_ counter: LiveCounter? = nil) {
        self.counter = counter
        counter?.created.increment(ordering: .relaxed)
    }

    deinit { counter?.destroyed.increment(ordering: .releasing) }

    /// Something to call from a closure, so that the closure really captures the canary.
    package func touch() {}
}

/// Counts live objects of one kind (one per test, so that tests running in parallel do
/// not disturb each other's counts): their `init` increments ``created`` (relaxed),
/// their `deinit` ``destroyed`` (releasing), so that counting adds no synchronisation
/// between the threads under test.
package final class LiveCounter: Sendable {
    package let created = Counter()
    package let destroyed = Counter()

    package init() {}

    /// Objects created and not yet destroyed.
    package var live: Int { created.value - destroyed.value }
}

/// Whether `isReleased` holds now, or within a second: for an object released with its
/// model, whose last reference may be held for an instant by another thread (the
/// library's clean-up of its hand-notification table takes a strong reference of each
/// live model it checks, and drops it right after). What was released at the next value
/// instead, or never, still fails.
package func released(_ isReleased: () -> Bool) -> Bool {
    if isReleased() { return true }
    for _ in 0..<1000 {
        usleep(1000)
        if isReleased() { return true }
    }
    return false
}
