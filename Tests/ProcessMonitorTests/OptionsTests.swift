import Testing
import ProcessMonitor

/// The command line.
@Suite struct OptionsTests {
    @Test func defaultsAndEveryOption() {
        #expect(Options.parse([]) == .run(Options()))
        var expected = Options()
        expected.interval = 0.5
        expected.duration = 3
        expected.once = true
        expected.plain = true
        expected.sortColumn = .memory
        expected.root = "/tmp/recording"
        expected.benchmarkFixture = "fixture"
        #expect(Options.parse(["--interval", "0.5", "--duration=3", "--once", "--plain", "--sort", "MEMORY",
                               "--root", "/tmp/recording", "--benchmark-refresh", "fixture"]) == .run(expected))
        #expect(Options.parse(["-h"]) == .help)
        #expect(Options.parse(["--once", "--help"]) == .help)
    }

    @Test func mistakesNameTheOptionAndTheFix() {
        #expect(Options.parse(["--no-such-option"]) == .invalid("unknown option '--no-such-option'"))
        #expect(Options.parse(["now"]) == .invalid("unexpected argument 'now' (options start with --)"))
        #expect(Options.parse(["--interval", "abc"]) == .invalid("--interval needs a number of seconds, 0.1 or more (got 'abc')"))
        #expect(Options.parse(["--interval", "0.01"]) == .invalid("--interval needs a number of seconds, 0.1 or more (got '0.01')"))
        #expect(Options.parse(["--interval"]) == .invalid("--interval needs a number of seconds, 0.1 or more (got nothing)"))
        #expect(Options.parse(["--duration", "-1"]) == .invalid("--duration needs a positive number of seconds (got '-1')"))
        #expect(Options.parse(["--sort", "size"]) == .invalid("--sort needs one of cpu, memory, pid, user, threads, command (got 'size')"))
        #expect(Options.parse(["--root"]) == .invalid("--root needs a directory that holds proc/ (got nothing)"))
    }

    @Test func theUsageNamesEveryOptionAndTheKeys() {
        for word in ["--interval", "--duration", "--once", "--sort", "--plain", "--root", "--benchmark-refresh", "--help",
                     "s next sort column", "S reverse order", "/ filter", "p pause", "q or Ctrl-C quit", "NO_COLOR", "TERM=dumb"] {
            #expect(Options.usage.contains(word), "\(word)")
        }
    }

    @Test func theEnvironmentDecidesColoursAndCursorMoves() {
        func allows(_ environment: [String: String]) -> (cursor: Bool, colors: Bool) {
            let capabilities = DisplayCapabilities(environment: environment)
            return (capabilities.cursorAddressing, capabilities.colors)
        }
        #expect(allows(["TERM": "xterm-256color"]) == (true, true))
        #expect(allows(["TERM": "xterm", "NO_COLOR": "1"]) == (true, false))
        #expect(allows(["TERM": "xterm", "NO_COLOR": ""]) == (true, true))   // empty: unset, as no-color.org says
        #expect(allows(["TERM": "dumb"]) == (false, false))
        #expect(allows([:]) == (false, false))
    }
}
