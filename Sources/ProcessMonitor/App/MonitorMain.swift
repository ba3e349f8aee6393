import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The program: parses the command line and runs the mode it asks for.
///
/// - On a terminal (standard input and output both, `TERM` not `dumb`): the interactive
///   monitor.
/// - Otherwise, or with `--plain`: one plain line per refresh.
/// - `--once`: one plain snapshot. `--benchmark-refresh`: the refresh's cost.
@MainActor
package enum MonitorMain {
    /// Runs `bindings-demo` with `arguments` (without the program's name).
    package static func run(arguments: [String]) -> Never {
        let options: Options
        switch Options.parse(arguments) {
        case .help:
            FileOutput.write(Options.usage + "\n", to: STDOUT_FILENO)
            exit(0)
        case .invalid(let message):
            FileOutput.write("bindings-demo: \(message)\n\n\(Options.usage)\n", to: STDERR_FILENO)
            exit(2)
        case .run(let parsed):
            options = parsed
        }
        do throws(ProcError) {
            if let fixture = options.benchmarkFixture {
                FileOutput.write(try RefreshBenchmark.run(fixture: fixture), to: STDOUT_FILENO)
                exit(0)
            }
            let monitor = Monitor(reader: try ProcReader(root: options.root), sortColumn: options.sortColumn, interval: options.interval)
            if options.once {
                try monitor.refresh()
                FileOutput.write(SnapshotPrinter.text(of: monitor), to: STDOUT_FILENO)
                exit(0)
            }
            let capabilities = DisplayCapabilities(environment: environment())
            let interactive = !options.plain && capabilities.cursorAddressing
                && isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
            guard interactive else { exit(PlainRunner(monitor: monitor, options: options).run()) }
            let ui = MonitorUI(monitor: monitor, colors: capabilities.colors)
            let runner = InteractiveRunner(session: TerminalSession(ui: ui, terminal: SystemTerminal())) { ending in
                // The terminal is restored by now, so the message lands on the main screen.
                if case .failure(let message) = ending {
                    FileOutput.write("bindings-demo: \(message)\n", to: STDERR_FILENO)
                }
                exit(ending.status)
            }
            do {
                try runner.start(events: .system(options: options))
            } catch {
                FileOutput.write("bindings-demo: \(error.description)\n", to: STDERR_FILENO)
                exit(1)
            }
            dispatchMain()
        } catch {
            FileOutput.write("bindings-demo: \(error.description)\n", to: STDERR_FILENO)
            exit(1)
        }
    }

    /// The process's environment variables.
    private static func environment() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}
