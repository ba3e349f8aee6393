import Bindings

/// The monitor's own state, apart from the machine and the table.
package final class MonitorState: KeyValueObservable {
    /// Refreshes are suspended (`p`): the screen keeps the last figures, keys still work.
    @Observed package var paused = false

    /// A running monitor.
    package init() {}
}
