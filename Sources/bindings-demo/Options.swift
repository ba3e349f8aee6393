// Command-line options of the demo.

struct Options {
    /// Stop after this many seconds; `nil` runs until Ctrl-C.
    var duration: Double?
    /// Time between two refreshes.
    var intervalMilliseconds = 1000

    enum Parsed {
        case run(Options)
        case help
        case invalid(String)
    }

    static let usage = """
        Usage: bindings-demo [--duration SECONDS] [--interval MILLISECONDS]

        A live dashboard of this machine (load, memory, processes, uptime from /proc),
        built with Bindings. On a terminal it redraws in place; otherwise it prints one
        plain line per update.

          --duration SECONDS       stop after SECONDS (default: run until Ctrl-C)
          --interval MILLISECONDS  time between refreshes (default: 1000)
          --help                   show this help
        """

    static func parse(_ arguments: [String]) -> Parsed {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h":
                return .help
            case "--duration":
                guard let value = rest.popFirst(), let seconds = Double(value), seconds > 0 else {
                    return .invalid("--duration needs a positive number of seconds")
                }
                options.duration = seconds
            case "--interval":
                guard let value = rest.popFirst(), let milliseconds = Int(value), milliseconds >= 50 else {
                    return .invalid("--interval needs a number of milliseconds, 50 or more")
                }
                options.intervalMilliseconds = milliseconds
            default:
                return .invalid("unknown option '\(argument)'")
            }
        }
        return .run(options)
    }
}
