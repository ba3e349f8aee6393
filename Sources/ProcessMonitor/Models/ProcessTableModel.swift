import Bindings

/// The process table: every process, the filter and the sort order, and the rows they
/// give, an `ObservableArray` whose changesets drive the table view.
///
/// The rows are derived by an `autorun`: it reads the processes, the filter and the sort
/// order, so any change of them (a refresh, a key typed in the filter, `s`) derives the
/// rows again, once per batch, and `replace(with:)` publishes only what differs.
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
        let column = sortColumn
        let descending = sortDescending
        var derived = needle.isEmpty ? processes : processes.filter { $0.matches(needle) }
        derived.sort { column.orders($0, before: $1, descending: descending) }
        rows.replace(with: derived)
    }
}
