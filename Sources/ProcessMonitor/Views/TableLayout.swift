/// A column of the process table.
package enum TableColumn: CaseIterable, Sendable {
    case pid, user, state, cpu, memory, resident, threads, command

    /// The order in which columns are dropped when the terminal is too narrow for all of
    /// them (the first goes first). PID, CPU% and COMMAND always stay.
    package static let dropOrder: [TableColumn] = [.threads, .resident, .state, .user, .memory]

    /// The narrowest the command column may be before another column is dropped.
    package static let minimumCommandWidth = 10

    /// Its title.
    package var title: String {
        switch self {
        case .pid: "PID"
        case .user: "USER"
        case .state: "S"
        case .cpu: "CPU%"
        case .memory: "MEM%"
        case .resident: "RSS"
        case .threads: "THR"
        case .command: "COMMAND"
        }
    }

    /// Its width; the command's is whatever is left (see ``TableLayout``).
    package var width: Int {
        switch self {
        case .pid: 7
        case .user: 8
        case .state: 1
        case .cpu, .memory: 5
        case .resident: 6
        case .threads: 4
        case .command: 0
        }
    }

    /// Text columns are aligned left, figures right.
    package var alignsLeft: Bool { self == .user || self == .state || self == .command }

    /// The column a sort column is shown in.
    package init(_ sort: SortColumn) {
        switch sort {
        case .cpu: self = .cpu
        case .memory: self = .memory
        case .pid: self = .pid
        case .user: self = .user
        case .threads: self = .threads
        case .command: self = .command
        }
    }

    /// The text of this column for `row` (not yet padded or clipped).
    package func text(of row: ProcessRow) -> String {
        switch self {
        case .pid: String(row.pid)
        case .user: row.user.count > 8 ? row.user.prefix(7) + "+" : row.user
        case .state: String(row.state)
        case .cpu: Format.tenths(row.cpuTenths)
        case .memory: Format.tenths(row.memoryTenths)
        case .resident: Format.kibibytes(row.residentKiB)
        case .threads: String(row.threads)
        case .command: row.command
        }
    }
}

/// Which columns the table shows at a width, and where: the widest set that leaves the
/// command at least ``TableColumn/minimumCommandWidth`` columns, dropping columns in
/// ``TableColumn/dropOrder``. Columns are separated by one space.
package struct TableLayout: Equatable, Sendable {
    /// The columns shown, left to right, each with its first column and width.
    package private(set) var columns: [(column: TableColumn, start: Int, width: Int)]
    /// The width laid out; `nil` for an unbounded line (plain output), where the command
    /// is never clipped.
    package let width: Int?

    /// The layout for `width` columns, or for an unbounded line.
    package init(width: Int?) {
        self.width = width
        var shown = TableColumn.allCases
        func fixedWidth() -> Int {
            shown.filter { $0 != .command }.reduce(0) { $0 + $1.width + 1 }
        }
        if let width {
            for column in TableColumn.dropOrder where fixedWidth() + TableColumn.minimumCommandWidth > width {
                shown.removeAll { $0 == column }
            }
        }
        var start = 0
        columns = []
        for column in shown {
            let columnWidth = column == .command ? max(0, (width ?? Int.max / 2) - start) : column.width
            columns.append((column, start, columnWidth))
            start += columnWidth + 1
        }
    }

    /// The columns shown, left to right.
    package var shown: [TableColumn] { columns.map(\.column) }

    /// `text` padded or clipped to `width`, aligned as `column` is.
    private static func fit(_ text: [Unicode.Scalar], width: Int, left: Bool) -> [Unicode.Scalar] {
        if text.count >= width { return Array(text.prefix(width)) }
        let padding = Array(repeating: Unicode.Scalar(" "), count: width - text.count)
        return left ? text + padding : padding + text
    }

    /// The characters of `row` as a line of this layout (as wide as the layout, or as
    /// long as the row's text for an unbounded one).
    package func line(of row: ProcessRow) -> [Unicode.Scalar] {
        var line: [Unicode.Scalar] = []
        for (column, _, width) in columns {
            if !line.isEmpty { line.append(" ") }
            let text = DisplayText.scalars(column.text(of: row))
            line += column == .command && self.width == nil ? text : Self.fit(text, width: width, left: column.alignsLeft)
        }
        return line
    }

    /// The header line: the titles, the sort column's followed by ▼ or ▲.
    package func header(sortedBy sort: SortColumn, descending: Bool) -> [Unicode.Scalar] {
        var line: [Unicode.Scalar] = []
        let marked = TableColumn(sort)
        for (column, _, width) in columns {
            if !line.isEmpty { line.append(" ") }
            let title = column.title + (column == marked ? (descending ? "▼" : "▲") : "")
            let fitted = column == .command && self.width == nil
                ? DisplayText.scalars(title) : Self.fit(DisplayText.scalars(title), width: width, left: column.alignsLeft)
            line += fitted
        }
        return line
    }

    package static func == (a: TableLayout, b: TableLayout) -> Bool {
        a.width == b.width && a.columns.map(\.column) == b.columns.map(\.column)
    }
}
