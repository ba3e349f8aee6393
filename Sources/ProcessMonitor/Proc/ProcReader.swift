#if canImport(Glibc)
import Glibc
#endif

/// Reads a ``SystemSnapshot`` from a system root: this machine's (`/`), or a recorded
/// one (a directory holding `proc/` and `etc/passwd`, as the tests' fixtures do).
///
/// A process's user and command line are read once, when it is first seen: each
/// refresh then reads one file per process (`stat`), which keeps a refresh of hundreds of
/// processes within a few milliseconds. (A process that changes its command line after
/// it started keeps showing the first one.)
package final class ProcReader {
    /// The root read.
    package private(set) var root: String
    private var files: ProcFileReader
    private let users: UserNames
    private let pageKiB: Int
    /// The user and command of each process seen, with its start time, which tells it
    /// from a later process with the same pid.
    private var known: [Int32: (startTicks: Int, user: String, command: String)] = [:]

    /// A reader of `root`'s `proc` and `etc/passwd`; pages are `pageSize` bytes (this
    /// machine's by default; recordings from a machine with other pages give theirs).
    package init(root: String = "/", pageSize: Int = Int(sysconf(Int32(_SC_PAGESIZE)))) throws(ProcError) {
        self.root = root
        let base = root.hasSuffix("/") ? root : root + "/"
        files = try ProcFileReader(path: base + "proc")
        users = UserNames(directory: base + "etc", askSystem: root == "/")
        pageKiB = max(1, pageSize / 1024)
    }

    /// Reads the next snapshots from another root: the next sample of a recording, read
    /// as if it came from the same machine (what is known of its processes is kept).
    package func switchRoot(to root: String) throws(ProcError) {
        files = try ProcFileReader(path: (root.hasSuffix("/") ? root : root + "/") + "proc")
        self.root = root
    }

    /// Reads the system and every process.
    package func read() throws(ProcError) -> SystemSnapshot {
        let hostname = files.withContents(of: "sys/kernel/hostname") { bytes in
            String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        } ?? ""
        guard let uptime = try files.require("uptime", Uptime.parse) else {
            throw ProcError("\(files.path)/uptime does not hold the seconds since boot")
        }
        guard let load = try files.require("loadavg", LoadAverage.parse) else {
            throw ProcError("\(files.path)/loadavg does not hold three load averages")
        }
        guard let cpu = try files.require("stat", CPUTimes.parse) else {
            throw ProcError("\(files.path)/stat has no cpu line")
        }
        guard let memory = try files.require("meminfo", MemoryInfo.parse) else {
            throw ProcError("\(files.path)/meminfo has no MemTotal line")
        }
        return SystemSnapshot(
            hostname: hostname.isEmpty ? "localhost" : hostname, uptime: uptime, load: load,
            cpuTotal: cpu.total, cpus: cpu.perCPU, memory: memory, processes: readProcesses())
    }

    private func readProcesses() -> [ProcessRecord] {
        let ids = files.processIDs()
        var records: [ProcessRecord] = []
        records.reserveCapacity(ids.count)
        var seen: [Int32: (startTicks: Int, user: String, command: String)] = [:]
        seen.reserveCapacity(ids.count)
        for pid in ids {
            // A process that ends between the listing and the read is skipped.
            guard let stat = files.withContents(of: "\(pid)/stat", ProcessStat.parse) ?? nil else { continue }
            let identity: (startTicks: Int, user: String, command: String)
            if let cached = known[pid], cached.startTicks == stat.startTicks {
                identity = cached
            } else {
                let uid = files.withContents(of: "\(pid)/status", ProcessStatus.userID) ?? nil
                let command = files.withContents(of: "\(pid)/cmdline", ProcessCommandLine.parse) ?? nil
                identity = (stat.startTicks, uid.map(users.name(of:)) ?? "?", command ?? "[\(stat.name)]")
            }
            seen[pid] = identity
            records.append(ProcessRecord(
                pid: pid, user: identity.user, command: identity.command, state: stat.state,
                cpuTicks: stat.cpuTicks, threads: stat.threads, startTicks: stat.startTicks,
                residentKiB: stat.residentPages * pageKiB))
        }
        known = seen
        return records
    }
}
