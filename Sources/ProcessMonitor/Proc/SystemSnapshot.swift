/// One process as read from /proc.
package struct ProcessRecord: Hashable, Sendable {
    /// The process id.
    package var pid: Int32
    /// The name of its real user.
    package var user: String
    /// Its command line, or its name in brackets for a kernel thread (as `ps` shows it).
    package var command: String
    /// The state letter (see ``ProcessStat/state``).
    package var state: Character
    /// User plus system CPU time since it started, in clock ticks.
    package var cpuTicks: Int
    /// Its threads.
    package var threads: Int
    /// When it started, in clock ticks after boot.
    package var startTicks: Int
    /// Resident memory, in KiB.
    package var residentKiB: Int

    /// Creates a record.
    package init(pid: Int32, user: String, command: String, state: Character, cpuTicks: Int, threads: Int, startTicks: Int, residentKiB: Int) {
        self.pid = pid
        self.user = user
        self.command = command
        self.state = state
        self.cpuTicks = cpuTicks
        self.threads = threads
        self.startTicks = startTicks
        self.residentKiB = residentKiB
    }
}

/// Everything one refresh reads from /proc.
package struct SystemSnapshot: Sendable {
    /// The host's name.
    package var hostname: String
    /// Seconds since boot: the clock of this snapshot.
    package var uptime: Double
    /// The load averages.
    package var load: LoadAverage
    /// The time of all CPUs together.
    package var cpuTotal: CPUTimes
    /// The time of each CPU.
    package var cpus: [CPUTimes]
    /// Memory and swap.
    package var memory: MemoryInfo
    /// The processes, by increasing pid.
    package var processes: [ProcessRecord]
}
