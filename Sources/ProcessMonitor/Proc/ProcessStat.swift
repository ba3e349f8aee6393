/// The fields of `/proc/PID/stat` the monitor uses.
package struct ProcessStat: Hashable, Sendable {
    /// The process id.
    package var pid: Int32
    /// The command name (`comm`, at most 15 bytes), without its parentheses.
    package var name: String
    /// The state letter: `R` running, `S` sleeping, `D` in uninterruptible wait, `Z`
    /// zombie, `T` stopped, `I` idle kernel thread...
    package var state: Character
    /// User plus system time, in clock ticks.
    package var cpuTicks: Int
    /// The number of threads.
    package var threads: Int
    /// When the process started, in clock ticks after boot: with the pid, it tells a
    /// process from a later one that reused its pid.
    package var startTicks: Int
    /// Resident set size, in pages.
    package var residentPages: Int

    /// Creates fields.
    package init(pid: Int32, name: String, state: Character, cpuTicks: Int, threads: Int, startTicks: Int, residentPages: Int) {
        self.pid = pid
        self.name = name
        self.state = state
        self.cpuTicks = cpuTicks
        self.threads = threads
        self.startTicks = startTicks
        self.residentPages = residentPages
    }

    /// Parses `/proc/PID/stat`: "5333 (cat) R 5324 ...". The name may hold spaces and
    /// parentheses, so it runs to the last `)`; the fields after it are numbered from 3
    /// (the state) as in proc(5).
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> ProcessStat? {
        guard let open = bytes.firstIndex(of: 40), let close = bytes.lastIndex(of: 41), open < close else { return nil }
        var head = ByteScanner(bytes)
        guard let pid = head.integer() else { return nil }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(open + 1)..<close]), as: UTF8.self)
        var scanner = ByteScanner(bytes, position: close + 1)
        scanner.skipBlanks()
        guard !scanner.isAtEnd else { return nil }
        let state = Character(Unicode.Scalar(bytes[scanner.position]))
        _ = scanner.word()
        // Fields 4 to 24; the state was field 3. Only the ones kept are stored.
        var cpuTicks = 0, threads = 0, startTicks = 0, residentPages = 0
        for field in 4...24 {
            guard let value = scanner.integer() else { return nil }
            switch field {
            case 14, 15: cpuTicks += value   // utime, stime
            case 20: threads = value
            case 22: startTicks = value
            case 24: residentPages = value
            default: break
            }
        }
        return ProcessStat(
            pid: Int32(truncatingIfNeeded: pid), name: name, state: state,
            cpuTicks: cpuTicks, threads: threads, startTicks: startTicks, residentPages: residentPages)
    }
}
