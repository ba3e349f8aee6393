import Bindings

/// The models and what refreshes them: a reader of /proc, a sampler, and one batch of
/// sets per refresh.
package final class Monitor {
    /// The machine.
    package let system: SystemModel
    /// The process table.
    package let table: ProcessTableModel
    /// Pause and the like.
    package let state = MonitorState()
    private let reader: ProcReader
    private var sampler: Sampler

    /// A monitor reading `reader`, sorting by `sortColumn`, keeping a minute of load
    /// samples at `interval` seconds.
    package init(reader: ProcReader, sortColumn: SortColumn = .cpu, interval: Double = 1, ticksPerSecond: Int? = nil) {
        self.reader = reader
        sampler = ticksPerSecond.map { Sampler(ticksPerSecond: $0) } ?? Sampler()
        system = SystemModel(historyLength: Int((60 / max(0.001, interval)).rounded()))
        table = ProcessTableModel(sortColumn: sortColumn)
    }

    /// Reads /proc and stores the result in the models. The sets are one batch: every
    /// observer hears of the refresh once, after it, with every figure of it (no view
    /// draws a new CPU total beside the old memory figure). The table's rows follow, from
    /// the `autorun` that derives them, once per batch.
    package func refresh() throws(ProcError) {
        let snapshot = try reader.read()
        let sample = sampler.sample(snapshot)
        batchChanges {
            system.update(from: snapshot, sample)
            table.processes = sample.rows
        }
    }
}
