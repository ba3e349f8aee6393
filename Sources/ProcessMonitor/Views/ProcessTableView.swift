import Bindings

/// The process table. It keeps its own copy of the rows, kept up to date by applying the
/// changesets of the model's `rows` (bound with `<~`), and the text of each row as last
/// drawn: a changeset that updates one row makes only that row be written again, and
/// only once it is on screen.
package final class ProcessTableView: BindingOwner {
    /// The rows, a mirror of the model's.
    package private(set) var rows: [ProcessRow] = []
    /// The column sorted by, for the header's marker.
    package var sortColumn = SortColumn.cpu
    /// Whether the order is descending.
    package var sortDescending = true
    /// The first row shown (scrolled with the arrow and page keys).
    package private(set) var scrollOffset = 0
    /// How many rows have been turned into text so far: what a changeset costs.
    package private(set) var rowsFormatted = 0
    /// Where the bindings live; they end with the view.
    package var subscriptions = Set<AnyCancellable>()

    /// Each row's line in ``layout``, or `nil` until it is drawn.
    private var lines: [[Unicode.Scalar]?] = []
    private var layout = TableLayout(width: 0)
    /// The rows shown at the last draw: the page size for scrolling.
    private var visibleRows = 0

    /// An empty table.
    package init() {}

    /// Binds the view to `table`: the rows by their changesets, the header's marker by
    /// the sort order.
    package func bind(to table: ProcessTableModel) {
        reactive.changes <~ table.rows.changes
        reactive.sortColumn <~ table.reactive.sortColumn
        reactive.sortDescending <~ table.reactive.sortDescending
    }

    /// Applies one changeset of the model's rows to the mirror and to the lines.
    package func apply(_ change: CollectionChange<ProcessRow>) {
        for edit in change.changes {
            switch edit {
            case .insert(let row, let index):
                rows.insert(row, at: index)
                lines.insert(nil, at: index)
            case .delete(let index):
                rows.remove(at: index)
                lines.remove(at: index)
            case .update(let row, let index):
                rows[index] = row
                lines[index] = nil
            case .move(let from, let to):
                rows.insert(rows.remove(at: from), at: to)
                lines.insert(lines.remove(at: from), at: to)
            }
        }
        scrollOffset = min(scrollOffset, max(0, rows.count - max(1, visibleRows)))
    }

    /// Scrolls by `delta` rows (negative: up), within the rows.
    package func scroll(by delta: Int) {
        scrollOffset = max(0, min(scrollOffset + delta, rows.count - max(1, visibleRows)))
    }

    /// Scrolls a page of `delta` pages.
    package func scroll(pages delta: Int) {
        scroll(by: delta * max(1, visibleRows - 1))
    }

    /// Scrolls to the first row, or to the last page.
    package func scroll(toTop: Bool) {
        scrollOffset = toTop ? 0 : max(0, rows.count - max(1, visibleRows))
    }

    /// Draws the header on `row` and the rows below it, `height` rows in all.
    package func draw(into frame: inout Frame, row top: Int, height: Int) {
        guard height > 0 else { return }
        let width = frame.size.width
        let layout = TableLayout(width: width)
        if layout != self.layout {
            self.layout = layout
            lines = Array(repeating: nil, count: rows.count)   // a new width: all lines change
        }
        frame.draw(layout.header(sortedBy: sortColumn, descending: sortDescending), row: top, column: 0)
        frame.setStyle(Style(.green, reverse: true), row: top, column: 0, width: width)
        visibleRows = height - 1
        scrollOffset = min(scrollOffset, max(0, rows.count - max(1, visibleRows)))
        for line in 0..<visibleRows {
            let index = scrollOffset + line
            guard index < rows.count else { break }
            if lines[index] == nil {
                lines[index] = layout.line(of: rows[index])
                rowsFormatted += 1
            }
            frame.draw(lines[index]!, row: top + 1 + line, column: 0, style: Self.style(of: rows[index]))
        }
    }

    /// Running processes stand out; kernel threads recede.
    private static func style(of row: ProcessRow) -> Style {
        if row.state == "R" { return Style(.default, bold: true) }
        if row.command.hasPrefix("[") { return Style(.brightBlack) }
        return .plain
    }
}

extension Reactive where Base: ProcessTableView {
    /// A binding target that applies each changeset to the table.
    package var changes: BindingSink<Base, CollectionChange<ProcessRow>> {
        BindingSink(owner: base) { view, change in view.apply(change) }
    }
}
