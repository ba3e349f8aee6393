import Synchronization

/// A counter (or flag) that threads share.
///
/// `increment()` is an acquire-release update by default; tests that must not add
/// synchronisation between the threads they watch (so that the thread sanitizer still
/// sees every race of the library) pass a weaker `ordering`.
package final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)

    package init() {}

    package var value: Int { atomic.load(ordering: .acquiring) }

    /// The memory ordering of an increment (`Atomic` takes only literal orderings).
    package enum Ordering: Sendable {
        case relaxed
        case releasing
        case acquiringAndReleasing
    }

    /// Adds one and returns the new value.
    @discardableResult
    package func increment(ordering: Ordering = .acquiringAndReleasing) -> Int {
        switch ordering {
        case .relaxed: atomic.add(1, ordering: .relaxed).newValue
        case .releasing: atomic.add(1, ordering: .releasing).newValue
        case .acquiringAndReleasing: atomic.add(1, ordering: .acquiringAndReleasing).newValue
        }
    }

    package func set(_ value: Int) { atomic.store(value, ordering: .releasing) }
}
