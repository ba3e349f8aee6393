import Bindings

/// The header's two lines: host, uptime and tasks; then the load averages and their
/// sparkline. A `BindingOwner` whose properties are bound to the system model's computed
/// key paths with `<~`.
package final class HeaderView: BindingOwner {
    /// The host's name.
    package var hostname: String?
    /// The formatted uptime.
    package var uptime: String?
    /// "1 running, 82 total".
    package var tasks: String?
    /// The three load averages.
    package var load: String?
    /// The last minute of load.
    package var sparkline: String?
    /// Where the bindings live; they end with the view.
    package var subscriptions = Set<AnyCancellable>()

    /// A view showing nothing until bound.
    package init() {}

    /// Binds the view to `system`: each property follows a computed key path of it.
    package func bind(to system: SystemModel) {
        reactive.hostname <~ system.reactive.hostname
        reactive.uptime <~ system.reactive.uptimeText
        reactive.tasks <~ system.reactive.tasksText
        reactive.load <~ system.reactive.loadText
        reactive.sparkline <~ system.reactive.loadSparkline
    }

    /// Draws "host  up 10h 21m 47s" and, right-aligned, "tasks 1 running, 82 total".
    package func drawTitle(into frame: inout Frame, row: Int) {
        let width = frame.size.width
        var column = frame.draw(hostname ?? "", row: row, column: 0, style: Style(bold: true))
        column += frame.draw("  up ", row: row, column: column)
        column += frame.draw(uptime ?? "", row: row, column: column, style: Style(.cyan))
        let tasksText = "tasks " + (tasks ?? "")
        let start = width - tasksText.count
        if start >= column + 2 {
            frame.draw("tasks ", row: row, column: start)
            frame.draw(tasks ?? "", row: row, column: start + 6, style: Style(.cyan))
        }
    }

    /// Draws "load 0.33 1.15 1.52  ▁▂▃▅▇", the sparkline clipped to the width.
    package func drawLoad(into frame: inout Frame, row: Int) {
        var column = frame.draw("load ", row: row, column: 0)
        column += frame.draw(load ?? "", row: row, column: column, style: Style(.cyan))
        frame.draw(sparkline ?? "", row: row, column: column + 2, style: Style(.green))
    }
}
