import Bindings

/// The machine as the monitor shows it: what one refresh reads, as `@Observed`
/// properties, and the text the views show, as computed properties whose dependencies
/// Bindings finds by itself (`reactive.uptimeText` is observed through `uptime`).
package final class SystemModel: KeyValueObservable {
    /// The host's name.
    @Observed package var hostname = ""
    /// Seconds since boot.
    @Observed package var uptime = 0.0
    /// The load averages.
    @Observed package var load = LoadAverage()
    /// The one-minute load average of each refresh of the last minute, oldest first.
    @Observed package var loadHistory: [Double] = []
    /// All CPUs' usage over the last interval.
    @Observed package var cpuTotal = CPUUsage()
    /// Each CPU's usage over the last interval.
    @Observed package var cpus: [CPUUsage] = []
    /// Memory and swap.
    @Observed package var memory = MemoryInfo()
    /// The processes.
    @Observed package var processCount = 0
    /// The processes in state `R`.
    @Observed package var runningCount = 0

    /// How many load samples make a minute at the refresh interval: the length of the
    /// sparkline.
    package let historyLength: Int

    /// A model that keeps `historyLength` load samples (60 at one refresh a second).
    package init(historyLength: Int = 60) {
        self.historyLength = max(1, historyLength)
    }

    /// Stores a refresh's snapshot and sample. Call it inside `batchChanges`, so that
    /// observers see the whole refresh at once.
    package func update(from snapshot: SystemSnapshot, _ sample: Sample) {
        if hostname != snapshot.hostname { hostname = snapshot.hostname }
        uptime = snapshot.uptime
        load = snapshot.load
        loadHistory = Array((loadHistory + [snapshot.load.one]).suffix(historyLength))
        cpuTotal = sample.cpuTotal
        cpus = sample.cpus
        memory = snapshot.memory
        processCount = snapshot.processes.count
        runningCount = sample.running
    }

    /// "10h 21m 47s".
    package var uptimeText: String { Format.duration(seconds: uptime) }

    /// "0.33 1.15 1.52".
    package var loadText: String {
        [load.one, load.five, load.fifteen].map { Format.decimal($0, places: 2) }.joined(separator: " ")
    }

    /// The last minute of the one-minute load, scaled to its highest value (or to the
    /// number of CPUs, when it is lower: a full machine reaches the top).
    package var loadSparkline: String {
        Format.sparkline(loadHistory, floor: Double(max(1, cpus.count)))
    }

    /// "1 running, 82 total".
    package var tasksText: String { "\(runningCount) running, \(processCount) total" }

    /// Memory used by programs, in percent of the total.
    package var memoryUsedPercent: Double {
        memory.totalKiB > 0 ? Double(memory.usedKiB) / Double(memory.totalKiB) * 100 : 0
    }

    /// "1.2G/23.5G": used of total.
    package var memoryText: String {
        "\(Format.kibibytes(memory.usedKiB))/\(Format.kibibytes(memory.totalKiB))"
    }

    /// "0/2.0G": swap used of total.
    package var swapText: String {
        "\(Format.kibibytes(memory.swapUsedKiB))/\(Format.kibibytes(memory.swapTotalKiB))"
    }

    /// The line printed per refresh off a terminal:
    /// "load 0.33 1.15 1.52 | cpu 23.6% | memory 5% used of 23.5G | procs 82, 1 running | uptime 10h 21m 47s".
    package var summaryLine: String {
        "load \(loadText) | cpu \(Format.decimal(cpuTotal.busy * 100, places: 1))% | memory \(Int(memoryUsedPercent.rounded()))% used of \(Format.kibibytes(memory.totalKiB)) | procs \(processCount), \(runningCount) running | uptime \(uptimeText)"
    }
}
