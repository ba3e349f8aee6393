/// A column the process table can be sorted by.
package enum SortColumn: String, CaseIterable, Sendable {
    case cpu, memory, pid, user, threads, command

    /// Its title in the table's header.
    package var title: String {
        switch self {
        case .cpu: "CPU%"
        case .memory: "MEM%"
        case .pid: "PID"
        case .user: "USER"
        case .threads: "THR"
        case .command: "COMMAND"
        }
    }

    /// Whether it starts in descending order: the figures where the largest matter most.
    package var descendsFirst: Bool {
        switch self {
        case .cpu, .memory, .threads: true
        case .pid, .user, .command: false
        }
    }

    /// The next column in the cycle of the `s` key, back to CPU after the last.
    package var next: SortColumn {
        let all = SortColumn.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Whether `a` comes before `b` when sorting by this column, `descending` or not;
    /// rows that tie come by increasing pid either way, so that the order is the same on
    /// every refresh.
    package func orders(_ a: ProcessRow, before b: ProcessRow, descending: Bool) -> Bool {
        let (first, second) = descending ? (b, a) : (a, b)
        switch self {
        case .cpu where a.cpuTenths != b.cpuTenths: return first.cpuTenths < second.cpuTenths
        case .memory where a.residentKiB != b.residentKiB: return first.residentKiB < second.residentKiB
        case .user where a.user != b.user: return first.user < second.user
        case .threads where a.threads != b.threads: return first.threads < second.threads
        case .command where a.command != b.command: return first.command < second.command
        case .pid: return first.pid < second.pid
        default: return a.pid < b.pid
        }
    }

    /// Parses a column's name as `--sort` takes it (`cpu`, `memory`, ...).
    package init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}
