#if canImport(Glibc)
import Glibc
#endif

/// Reads a ``SystemSnapshot`` from a system root: this machine's (`/`), or a recorded
/// one (a directory holding `proc/` and `etc/passwd`, as the tests' fixtures do).
///
/// A refresh of hundreds of processes stays within a few milliseconds because it makes
/// one system call per process: a process's user and command line are read once, when
/// it is first seen (a process that changes its command line later keeps showing the
/// first one), and its `stat` file stays open, to be read again from its start (/proc
/// makes the text anew at each read, and fails the read once the process is gone). At
/// most ``openFileBudget`` files stay open; the processes beyond are opened each time.
package final class ProcReader {
    /// The root read.
    package private(set) var root: String
    private var files: ProcFileReader
    private let users: UserNames
    private let pageKiB: Int
    /// The user and command of each process seen, with its start time, which tells it
    /// from a later process with the same pid.
    private var known: [Int32: (startTicks: Int, user: String, command: String)] = [:]
    /// The open `stat` file of each process that has one.
    private var statFiles: [Int32: Int32] = [:]
    /// How many `stat` files may stay open: the descriptor limit, less room for the rest
    /// of the program.
    package let openFileBudget: Int

    /// A reader of `root`'s `proc` and `etc/passwd`; pages are `pageSize` bytes (this
    /// machine's by default; recordings from a machine with other pages give theirs).
    package init(root: String = "/", pageSize: Int = Int(sysconf(Int32(_SC_PAGESIZE)))) throws(ProcError) {
        self.root = root
        let base = root.hasSuffix("/") ? root : root + "/"
        files = try ProcFileReader(path: base + "proc")
        users = UserNames(directory: base + "etc", askSystem: root == "/")
        pageKiB = max(1, pageSize / 1024)
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        openFileBudget = max(0, Int(min(limit.rlim_cur, 1 << 20)) - 256)
    }

    deinit {
        for descriptor in statFiles.values { close(descriptor) }
    }

    /// Reads the next snapshots from another root: the next sample of a recording, read
    /// as if it came from the same machine (what is known of its processes is kept).
    package func switchRoot(to root: String) throws(ProcError) {
        files = try ProcFileReader(path: (root.hasSuffix("/") ? root : root + "/") + "proc")
        self.root = root
        for descriptor in statFiles.values { close(descriptor) }   // files of the old root
        statFiles = [:]
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
            guard let stat = readStat(of: pid) else { continue }
            let identity: (startTicks: Int, user: String, command: String)
            if let cached = known[pid], cached.startTicks == stat.startTicks {
                identity = cached
            } else {
                let uid = files.withContents(ofProcess: pid, "status", ProcessStatus.userID) ?? nil
                let command = files.withContents(ofProcess: pid, "cmdline", ProcessCommandLine.parse) ?? nil
                identity = (stat.startTicks, uid.map(users.name(of:)) ?? "?", command ?? "[\(stat.name)]")
            }
            seen[pid] = identity
            records.append(ProcessRecord(
                pid: pid, user: identity.user, command: identity.command, state: stat.state,
                cpuTicks: stat.cpuTicks, threads: stat.threads, startTicks: stat.startTicks,
                residentKiB: stat.residentPages * pageKiB))
        }
        known = seen
        if statFiles.count > records.count {   // some processes ended: close their files
            for (pid, descriptor) in statFiles where seen[pid] == nil {
                close(descriptor)
                statFiles[pid] = nil
            }
        }
        return records
    }

    /// `pid`'s `stat`, through its open file (opened now if there is room), or `nil` when
    /// the process has ended.
    private func readStat(of pid: Int32) -> ProcessStat? {
        if let descriptor = statFiles[pid] {
            if let stat = files.withContents(ofDescriptor: descriptor, ProcessStat.parse) ?? nil { return stat }
            // The process ended; its pid may be a new process's already.
            close(descriptor)
            statFiles[pid] = nil
        }
        guard statFiles.count < openFileBudget, let descriptor = files.open(process: pid, "stat") else {
            return files.withContents(ofProcess: pid, "stat", ProcessStat.parse) ?? nil
        }
        statFiles[pid] = descriptor
        return files.withContents(ofDescriptor: descriptor, ProcessStat.parse) ?? nil
    }
}
