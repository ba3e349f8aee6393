#if canImport(Glibc)
import Glibc
#endif

/// What the models show of one snapshot: usages over the interval since the previous
/// one, and the table's rows.
package struct Sample: Sendable {
    /// All CPUs together.
    package var cpuTotal: CPUUsage
    /// Each CPU.
    package var cpus: [CPUUsage]
    /// One row per process, by pid.
    package var rows: [ProcessRow]
    /// The processes in state `R`.
    package var running: Int
}

/// Turns snapshots into samples: CPU figures are differences between two snapshots, so
/// the sampler keeps the previous one.
///
/// The first snapshot has no previous one: its figures are averages since boot (CPUs)
/// and since each process started (as `ps` shows), not zeros.
package struct Sampler {
    private let ticksPerSecond: Double
    private var previous: SystemSnapshot?
    /// The previous snapshot's CPU ticks of each process, with its start time.
    private var previousTicks: [Int32: (startTicks: Int, cpuTicks: Int)] = [:]

    /// A sampler for a system whose clock ticks `ticksPerSecond` times a second (this
    /// machine's `_SC_CLK_TCK` by default).
    package init(ticksPerSecond: Int = Int(sysconf(Int32(_SC_CLK_TCK)))) {
        self.ticksPerSecond = Double(max(1, ticksPerSecond))
    }

    /// The sample of `snapshot`, after the previous one given.
    package mutating func sample(_ snapshot: SystemSnapshot) -> Sample {
        let cpuTotal = CPUUsage(from: previous?.cpuTotal, to: snapshot.cpuTotal)
        let cpus = snapshot.cpus.indices.map { index in
            CPUUsage(from: previous.flatMap { $0.cpus.indices.contains(index) ? $0.cpus[index] : nil }, to: snapshot.cpus[index])
        }
        let elapsed = previous.map { snapshot.uptime - $0.uptime } ?? 0
        let memoryTotal = Double(max(1, snapshot.memory.totalKiB))
        var rows: [ProcessRow] = []
        rows.reserveCapacity(snapshot.processes.count)
        var ticks: [Int32: (startTicks: Int, cpuTicks: Int)] = [:]
        ticks.reserveCapacity(snapshot.processes.count)
        var running = 0
        for process in snapshot.processes {
            let seconds: Double
            let used: Int
            if elapsed > 0, let before = previousTicks[process.pid], before.startTicks == process.startTicks {
                seconds = elapsed
                used = process.cpuTicks - before.cpuTicks
            } else {
                seconds = snapshot.uptime - Double(process.startTicks) / ticksPerSecond
                used = process.cpuTicks
            }
            let percent = seconds > 0 ? Double(max(0, used)) / ticksPerSecond / seconds * 100 : 0
            rows.append(ProcessRow(
                pid: process.pid, user: process.user, state: process.state,
                cpuTenths: Int((percent * 10).rounded()),
                memoryTenths: Int((Double(process.residentKiB) / memoryTotal * 1000).rounded()),
                residentKiB: process.residentKiB, threads: process.threads, command: process.command))
            ticks[process.pid] = (process.startTicks, process.cpuTicks)
            if process.state == "R" { running += 1 }
        }
        previous = snapshot
        previousTicks = ticks
        return Sample(cpuTotal: cpuTotal, cpus: cpus, rows: rows, running: running)
    }
}
