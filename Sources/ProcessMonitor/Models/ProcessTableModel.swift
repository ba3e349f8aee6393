import Bindings

/// The process table: every process, the filter and the sort order, and the rows they
/// give, an `ObservableArray` whose changesets drive the table view.
///
/// The rows are derived by an `autorun`: it reads the processes, the filter and the sort
/// order, so any change of them (a refresh, a key typed in the filter, `s`) derives the
/// rows again, once per batch, and `replace(with:)` publishes only what differs (see
/// ``publish(_:)`` for when the rows are sent anew instead).
package final class ProcessTableModel: KeyValueObservable {
    /// Every process of the last refresh, by pid.
    @Observed package var processes: [ProcessRow] = []
    /// The filter text; bound two-way to the filter field.
    @Observed package var filter = ""
    /// The column sorted by.
    @Observed package var sortColumn = SortColumn.cpu
    /// Whether the order is descending.
    @Observed package var sortDescending = true
    /// The processes that match the filter, in sort order: what the table shows.
    package let rows = ObservableArray<ProcessRow>()

    private var derivation: AnyCancellable?

    /// An empty table sorted by `sortColumn` in its natural direction.
    package init(sortColumn: SortColumn = .cpu) {
        self.sortColumn = sortColumn
        sortDescending = sortColumn.descendsFirst
        derivation = autorun { [weak self] in self?.deriveRows() }
    }

    /// `s`: sort by the next column, in its natural direction.
    package func cycleSortColumn() {
        batchChanges {
            sortColumn = sortColumn.next
            sortDescending = sortColumn.descendsFirst
        }
    }

    /// `S`: reverse the order.
    package func reverseSortOrder() {
        sortDescending.toggle()
    }

    /// "CPU% ▼": the sort column and its direction.
    package var sortTitle: String { "\(sortColumn.title) \(sortDescending ? "▼" : "▲")" }

    /// "12 of 68": the rows shown, of all processes.
    package var shownText: String { "\(rows.count) of \(processes.count)" }

    private func deriveRows() {
        let needle = filter.lowercased()
        let filtered = needle.isEmpty ? processes : processes.filter { $0.matches(needle) }
        publish(Self.sorted(filtered, by: sortColumn, descending: sortDescending))
    }

    /// Publishes `derived` as the new rows. `replace(with:)` finds the smallest
    /// difference, in time proportional to the rows times the edits: fine for a refresh
    /// (a few rows change), slow when most rows move (17 ms of CPU, in a release build, for
    /// the 500 rows of the benchmark's recording whose figures all changed at once). When
    /// more than half the rows are not where
    /// they were, they are sent anew instead, as two changesets (all removed, all
    /// inserted), which costs time proportional to the rows.
    private func publish(_ derived: [ProcessRow]) {
        let current = rows.elements
        var moved = abs(current.count - derived.count)
        for index in 0..<min(current.count, derived.count) where current[index] != derived[index] { moved += 1 }
        if moved * 2 > max(current.count, derived.count), !current.isEmpty {
            rows.removeAll()
            rows.append(contentsOf: derived)
        } else {
            rows.replace(with: derived)
        }
    }

    /// `rows` in the order of `column`. A numeric column sorts an array of its keys
    /// (cheap to compare and move) rather than the rows themselves: this runs on every
    /// refresh, for every process.
    static func sorted(_ rows: [ProcessRow], by column: SortColumn, descending: Bool) -> [ProcessRow] {
        let key: ((ProcessRow) -> Int)? = switch column {
        case .cpu: { $0.cpuTenths }
        case .memory: { $0.residentKiB }
        case .threads: { $0.threads }
        case .pid: { Int($0.pid) }
        case .user, .command: nil
        }
        guard let key else {
            return rows.sorted { column.orders($0, before: $1, descending: descending) }
        }
        var keys = rows.indices.map { (key: key(rows[$0]), pid: rows[$0].pid, index: $0) }
        keys.sort { a, b in
            if a.key != b.key { return descending ? a.key > b.key : a.key < b.key }
            return column == .pid && descending ? a.pid > b.pid : a.pid < b.pid
        }
        return keys.map { rows[$0.index] }
    }
}
