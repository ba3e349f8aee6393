/// The command line of `bindings-demo`.
package struct Options: Equatable, Sendable {
    /// Seconds between refreshes.
    package var interval = 1.0
    /// Seconds to run; `nil` runs until the user quits.
    package var duration: Double?
    /// Print one plain snapshot and exit.
    package var once = false
    /// Plain lines even on a terminal.
    package var plain = false
    /// The column sorted by at start.
    package var sortColumn = SortColumn.cpu
    /// The system root read: `/`, or a recording.
    package var root = "/"
    /// Measure refreshes of the recording in this directory, and exit.
    package var benchmarkFixture: String?

    /// Default options.
    package init() {}

    /// What the command line asks for.
    package enum Parsed: Equatable, Sendable {
        /// Run with these options.
        case run(Options)
        /// Print the usage and exit 0.
        case help
        /// A mistake: print it with the usage, and exit 2.
        case invalid(String)
    }

    /// The usage text.
    package static let usage = """
        Usage: bindings-demo [options]

        A live process monitor of this machine, built with Bindings: the header, CPU,
        memory and swap bars, and the processes, from /proc. On a terminal it is
        interactive; off one (a pipe, CI) it prints one plain line per refresh.

          --interval SECONDS     time between refreshes (default 1; at least 0.1)
          --duration SECONDS     stop after SECONDS (default: run until q or Ctrl-C)
          --once                 print one plain snapshot (summary and processes), then exit
          --sort COLUMN          sort by cpu, memory, pid, user, threads or command (default cpu)
          --plain                print plain lines even on a terminal
          --root DIR             read DIR/proc and DIR/etc/passwd (a recorded system)
          --benchmark-refresh DIR
                                 measure the CPU time of a refresh of the recording in DIR
                                 (DIR/t0, t1, t2), then exit
          -h, --help             show this help

        Keys: s next sort column, S reverse order, / filter (Enter keeps it, Esc clears it),
        p pause, arrows and PgUp/PgDn scroll, Ctrl-L redraw, q or Ctrl-C quit.
        Colours follow NO_COLOR; TERM=dumb gets the plain lines.
        """

    /// Parses `arguments` (without the program's name). Options take their value as the
    /// next argument or after `=` (`--interval=0.5`).
    package static func parse(_ arguments: [String]) -> Parsed {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() -> String? { inlineValue ?? rest.popFirst() }
            switch name {
            case "-h", "--help":
                return .help
            case "--once":
                options.once = true
            case "--plain":
                options.plain = true
            case "--interval":
                let given = value()
                guard let given, let seconds = Double(given), seconds >= 0.1, seconds.isFinite else {
                    return .invalid("--interval needs a number of seconds, 0.1 or more (got \(quoted(given)))")
                }
                options.interval = seconds
            case "--duration":
                let given = value()
                guard let given, let seconds = Double(given), seconds > 0, seconds.isFinite else {
                    return .invalid("--duration needs a positive number of seconds (got \(quoted(given)))")
                }
                options.duration = seconds
            case "--sort":
                let given = value()
                guard let given, let column = SortColumn(argument: given) else {
                    let names = SortColumn.allCases.map(\.rawValue).joined(separator: ", ")
                    return .invalid("--sort needs one of \(names) (got \(quoted(given)))")
                }
                options.sortColumn = column
            case "--root":
                guard let given = value(), !given.isEmpty else {
                    return .invalid("--root needs a directory that holds proc/ (got nothing)")
                }
                options.root = given
            case "--benchmark-refresh":
                guard let given = value(), !given.isEmpty else {
                    return .invalid("--benchmark-refresh needs a recording's directory, holding t0/, t1/ and t2/ (got nothing)")
                }
                options.benchmarkFixture = given
            default:
                return .invalid(argument.hasPrefix("-")
                    ? "unknown option '\(argument)'" : "unexpected argument '\(argument)' (options start with --)")
            }
        }
        return .run(options)
    }

    private static func quoted(_ value: String?) -> String {
        value.map { "'\($0)'" } ?? "nothing"
    }
}
