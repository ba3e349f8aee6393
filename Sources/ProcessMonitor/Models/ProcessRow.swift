/// One row of the process table, with its figures rounded to what is shown, so that a
/// row is equal to its previous value unless what it shows changed: the table's changeset
/// then holds only the rows to redraw.
package struct ProcessRow: Hashable, Sendable {
    /// The process id.
    package var pid: Int32
    /// The name of its user.
    package var user: String
    /// The state letter.
    package var state: Character
    /// CPU use over the last interval, in tenths of a percent of one CPU.
    package var cpuTenths: Int
    /// Resident memory as a share of the machine's, in tenths of a percent.
    package var memoryTenths: Int
    /// Resident memory, in KiB.
    package var residentKiB: Int
    /// Threads.
    package var threads: Int
    /// The command line.
    package var command: String

    /// Creates a row.
    package init(pid: Int32, user: String, state: Character, cpuTenths: Int, memoryTenths: Int, residentKiB: Int, threads: Int, command: String) {
        self.pid = pid
        self.user = user
        self.state = state
        self.cpuTenths = cpuTenths
        self.memoryTenths = memoryTenths
        self.residentKiB = residentKiB
        self.threads = threads
        self.command = command
    }

    /// Whether the row matches the filter `text` (already lowercased): in its command,
    /// its user, or the digits of its pid. An empty filter matches every row.
    package func matches(_ text: String) -> Bool {
        text.isEmpty || command.lowercased().contains(text) || user.lowercased().contains(text)
            || String(pid).hasPrefix(text)
    }
}
