/// The time a CPU (or all of them) spent in each state since boot, in clock ticks: a
/// `cpu` line of `/proc/stat`.
package struct CPUTimes: Hashable, Sendable {
    /// Running user code, niced code included.
    package var user: Int
    /// Running the kernel (system calls, soft interrupts).
    package var system: Int
    /// Waiting for I/O, serving hardware interrupts, and taken by the hypervisor (steal).
    package var other: Int
    /// Idle.
    package var idle: Int

    /// Creates times.
    package init(user: Int = 0, system: Int = 0, other: Int = 0, idle: Int = 0) {
        self.user = user
        self.system = system
        self.other = other
        self.idle = idle
    }

    /// All the time counted.
    package var total: Int { user + system + other + idle }

    /// The times of `/proc/stat`: the line of all CPUs (`cpu`), and one per CPU
    /// (`cpu0`, `cpu1`, ...), in order; `nil` if there is no `cpu` line.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> (total: CPUTimes, perCPU: [CPUTimes])? {
        var scanner = ByteScanner(bytes)
        var total: CPUTimes?
        var perCPU: [CPUTimes] = []
        while !scanner.isAtEnd {
            guard scanner.consume("cpu") else { break }   // the cpu lines come first
            let index = scanner.integer(skippingBlanks: false)   // nil for the total line
            // user nice system idle iowait irq softirq steal (guest time is already in user)
            var fields = [Int](repeating: 0, count: 8)
            for field in 0..<8 { fields[field] = scanner.integer() ?? 0 }
            let times = CPUTimes(
                user: fields[0] + fields[1], system: fields[2] + fields[6],
                other: fields[4] + fields[5] + fields[7], idle: fields[3])
            if index == nil { total = times } else { perCPU.append(times) }
            scanner.skipLine()
        }
        guard let total else { return nil }
        return (total, perCPU)
    }
}
