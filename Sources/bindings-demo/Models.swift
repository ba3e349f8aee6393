// The observed model: raw figures are `@Observed`, the text the views show is computed
// from them. Bindings finds each computed property's dependencies by itself.

import Bindings

final class Machine: KeyValueObservable {
    @Observed var hostname = "this machine"
    @Observed var load = LoadAverage()
    @Observed var memory = Memory()
    @Observed var processCount = 0
    @Observed var uptimeSeconds = 0.0

    var loadSummary: String {
        "load     \(format(load.one))  \(format(load.five))  \(format(load.fifteen))   (1, 5, 15 min)"
    }

    var memorySummary: String {
        guard memory.totalKiB > 0 else { return "memory   unknown" }
        let used = memory.totalKiB - memory.availableKiB
        let percent = Int((Double(used) / Double(memory.totalKiB) * 100).rounded())
        return "memory   \(percent)% used of \(format(Double(memory.totalKiB) / 1_048_576)) GiB"
    }

    var processSummary: String { "procs    \(processCount)" }

    var uptimeSummary: String {
        let total = Int(uptimeSeconds)
        let (days, hours, minutes, seconds) = (total / 86_400, total / 3_600 % 24, total / 60 % 60, total % 60)
        return "uptime   " + (days > 0 ? "\(days)d " : "") + "\(hours)h \(minutes)m \(seconds)s"
    }

    /// Reads /proc and stores what changed; every set notifies the bound views.
    func refresh() {
        let snapshot = ProcSnapshot.read()
        if hostname != snapshot.hostname { hostname = snapshot.hostname }
        load = snapshot.load
        memory = snapshot.memory
        processCount = snapshot.processCount
        uptimeSeconds = snapshot.uptimeSeconds
    }
}

struct LoadAverage: Equatable {
    var one = 0.0, five = 0.0, fifteen = 0.0
}

struct Memory: Equatable {
    var totalKiB = 0, availableKiB = 0
}

private func format(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
