/// What share of a CPU's time (or of all CPUs') went to each kind of work over an
/// interval: fractions from 0 to 1.
package struct CPUUsage: Hashable, Sendable {
    /// User code.
    package var user: Double
    /// The kernel.
    package var system: Double
    /// I/O wait, interrupts, steal.
    package var other: Double

    /// Creates a usage.
    package init(user: Double = 0, system: Double = 0, other: Double = 0) {
        self.user = user
        self.system = system
        self.other = other
    }

    /// The busy share: all but idle.
    package var busy: Double { user + system + other }

    /// The usage between two readings of a CPU's times (from boot when `earlier` is
    /// `nil`).
    package init(from earlier: CPUTimes?, to later: CPUTimes) {
        let base = earlier ?? CPUTimes()
        let total = Double(later.total - base.total)
        guard total > 0 else {
            self.init()
            return
        }
        self.init(
            user: Double(later.user - base.user) / total,
            system: Double(later.system - base.system) / total,
            other: Double(later.other - base.other) / total)
    }
}
