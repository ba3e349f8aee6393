import Bindings

/// The bottom line: the keys (or the filter field while it is in use) on the left, and
/// the table's state on the right ("CPU% ▼  12 of 68  paused"). That state is kept by
/// an `autorun` over the models, which runs again whenever something it read changes.
package final class StatusLineView: BindingOwner {
    /// The state text, kept by the reaction.
    package var text = ""
    /// Where the reaction lives; it ends with the view.
    package var subscriptions = Set<AnyCancellable>()

    /// The keys, as shown when the filter field is not.
    package static let keys = "s sort  S reverse  / filter  p pause  q quit"

    /// An empty line.
    package init() {}

    /// Keeps ``text`` up to date with `table` and `state`.
    package func bind(to table: ProcessTableModel, state: MonitorState) {
        autorun { [weak self] in
            let paused = state.paused ? "  paused" : ""
            self?.text = "\(table.sortTitle)  \(table.shownText)\(paused)"
        }
        .store(in: &subscriptions)
    }

    /// Draws the line on `row`: `field` when it is shown, the keys otherwise, and the
    /// state text right-aligned (the left part gives way to it).
    package func draw(into frame: inout Frame, row: Int, field: FilterFieldView) {
        let width = frame.size.width
        let state = DisplayText.scalars(text)
        let stateStart = max(0, width - state.count)
        let room = max(0, stateStart - 2)
        if field.isShown {
            field.draw(into: &frame, row: row, width: room)
        } else {
            drawKeys(into: &frame, row: row, width: room)
        }
        frame.draw(state, row: row, column: stateStart, style: Style(.cyan))
    }

    /// The keys, each key letter bold.
    private func drawKeys(into frame: inout Frame, row: Int, width: Int) {
        var column = 0
        for (index, part) in Self.keys.split(separator: "  ").enumerated() {
            let spacing = index == 0 ? 0 : 2
            guard column + spacing + part.count <= width else { return }
            column += spacing
            let key = part.prefix(while: { $0 != " " })
            frame.draw(key, row: row, column: column, style: Style(bold: true))
            frame.draw(part.dropFirst(key.count), row: row, column: column + key.count)
            column += part.count
        }
    }
}
