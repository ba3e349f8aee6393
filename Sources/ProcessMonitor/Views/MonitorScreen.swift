/// Lays the views out on a screen of a given size and draws a frame.
///
/// From the top: the title line, the load line, the per-CPU grid, the bars of all CPUs,
/// memory and swap, then the process table, and the status line at the bottom. When the
/// terminal is too short to leave the table ``minimumTableRows`` rows, sections are
/// dropped in ``Section/dropOrder``; the title, the table's header and the status line
/// always stay.
package struct MonitorScreen {
    /// A part of the screen above the table that may be left out.
    package enum Section: CaseIterable, Sendable {
        case load, cpuGrid, cpuTotal, memory, swap

        /// The order sections are dropped in on a short terminal.
        package static let dropOrder: [Section] = [.cpuGrid, .swap, .load, .cpuTotal, .memory]
    }

    /// The rows of processes the table keeps before sections above it are dropped.
    package static let minimumTableRows = 5

    /// The views drawn.
    package let header: HeaderView
    /// The bars.
    package let meters: MetersView
    /// The table.
    package let table: ProcessTableView
    /// The filter field.
    package let field: FilterFieldView
    /// The status line.
    package let status: StatusLineView

    /// A screen of these views.
    package init(header: HeaderView, meters: MetersView, table: ProcessTableView, field: FilterFieldView, status: StatusLineView) {
        self.header = header
        self.meters = meters
        self.table = table
        self.field = field
        self.status = status
    }

    /// The sections shown on a screen of `size`, in screen order.
    package func sections(for size: TerminalSize) -> [Section] {
        var shown = Section.allCases
        func height(_ section: Section) -> Int {
            section == .cpuGrid ? meters.gridRows(width: size.width) : 1
        }
        // The title, the table's header and the status line: 3 rows.
        for section in Section.dropOrder
        where size.height - 3 - shown.reduce(0, { $0 + height($1) }) < Self.minimumTableRows {
            shown.removeAll { $0 == section }
        }
        return shown
    }

    /// The frame of the views at `size`.
    package func frame(size: TerminalSize) -> Frame {
        var frame = Frame(size: size)
        guard size.height > 0, size.width > 0 else { return frame }
        header.drawTitle(into: &frame, row: 0)
        guard size.height > 1 else { return frame }
        var row = 1
        for section in sections(for: size) {
            switch section {
            case .load: header.drawLoad(into: &frame, row: row)
            case .cpuGrid: meters.drawGrid(into: &frame, row: row)
            case .cpuTotal: meters.drawTotal(into: &frame, row: row)
            case .memory: meters.drawMemory(into: &frame, row: row)
            case .swap: meters.drawSwap(into: &frame, row: row)
            }
            row += section == .cpuGrid ? meters.gridRows(width: size.width) : 1
        }
        let statusRow = size.height - 1
        table.draw(into: &frame, row: row, height: max(0, statusRow - row))
        status.draw(into: &frame, row: statusRow, field: field)
        return frame
    }
}
