// One reading of /proc. Missing files (not Linux) read as zeros.

import Foundation

struct ProcSnapshot {
    var hostname = "this machine"
    var load = LoadAverage()
    var memory = Memory()
    var processCount = 0
    var uptimeSeconds = 0.0

    static func read() -> ProcSnapshot {
        var snapshot = ProcSnapshot()
        if let name = contents("/proc/sys/kernel/hostname")?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty {
            snapshot.hostname = name
        }
        let loads = (contents("/proc/loadavg") ?? "").split(separator: " ").prefix(3).compactMap { Double($0) }
        if loads.count == 3 { snapshot.load = LoadAverage(one: loads[0], five: loads[1], fifteen: loads[2]) }
        for line in (contents("/proc/meminfo") ?? "").split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let kib = Int(fields[1]) else { continue }
            if fields[0] == "MemTotal:" { snapshot.memory.totalKiB = kib }
            if fields[0] == "MemAvailable:" { snapshot.memory.availableKiB = kib }
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        snapshot.processCount = entries.filter { $0.allSatisfy(\.isNumber) }.count
        if let uptime = contents("/proc/uptime")?.split(separator: " ").first, let seconds = Double(uptime) {
            snapshot.uptimeSeconds = seconds
        }
        return snapshot
    }

    private static func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
