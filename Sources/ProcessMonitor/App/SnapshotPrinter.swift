/// `--once`: the summary line, then the whole process table, as plain text.
package enum SnapshotPrinter {
    /// The snapshot of `monitor`'s models as they are: every row, every column, the
    /// command lines whole.
    package static func text(of monitor: Monitor) -> String {
        let layout = TableLayout(width: nil)
        var lines = [monitor.system.summaryLine]
        lines.append(trimmed(layout.header(sortedBy: monitor.table.sortColumn, descending: monitor.table.sortDescending)))
        for row in monitor.table.rows { lines.append(trimmed(layout.line(of: row))) }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func trimmed(_ scalars: [Unicode.Scalar]) -> String {
        var view = String.UnicodeScalarView(scalars)
        while view.last == " " { view.removeLast() }
        return String(view)
    }
}
