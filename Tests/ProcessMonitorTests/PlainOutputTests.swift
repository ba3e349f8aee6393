import Testing
import ProcessMonitor

#if canImport(Glibc)
import Glibc
#endif

/// The output off a terminal: the snapshot of `--once`, and one plain line per refresh.
@Suite struct PlainOutputTests {
    @Test func theOnceSnapshotOfARecording() throws {
        let monitor = try Fixture.monitor("small", samples: ["t0"])
        #expect(SnapshotPrinter.text(of: monitor) == """
            load 0.88 0.90 1.22 | cpu 68.2% | memory 1% used of 23.5G | procs 7, 1 running | uptime 10h 28m 59s
                PID USER     S CPU%▼  MEM%    RSS  THR COMMAND
               9612 root     R 113.2   0.0   1.4M    1 sh -c while :; do :; done
                  2 root     S   0.0   0.0      0    1 [kthreadd]
                  3 root     S   0.0   0.0      0    1 [pool_workqueue_release]
                  4 root     I   0.0   0.0      0    1 [kworker/R-rcu_gp]
               9609 root     S   0.0   0.0   1.7M    1 sleep 600
               9610 nobody   S   0.0   0.0   1.6M    1 sleep 601
               9611 daemon   S   0.0   0.0   1.6M    1 tail -f /dev/null

            """)
    }

    @Test func plainLinesOnePerRefreshWithoutEscapes() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let root = Fixture.root("small", "t0")
            var options = Options()
            options.interval = 0.1
            options.duration = 0.25   // refreshes at 0, 0.1 and 0.2 s
            let monitor = Monitor(reader: try ProcReader(root: root, pageSize: 4096), ticksPerSecond: 100)
            exit(PlainRunner(monitor: monitor, options: options).run())
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        #expect(!output.contains("\u{1B}"))
        // The same recording each time: the same line, but for the CPU, which the later
        // refreshes measure over no time at all.
        #expect(output == """
            load 0.88 0.90 1.22 | cpu 68.2% | memory 1% used of 23.5G | procs 7, 1 running | uptime 10h 28m 59s
            load 0.88 0.90 1.22 | cpu 0.0% | memory 1% used of 23.5G | procs 7, 1 running | uptime 10h 28m 59s
            load 0.88 0.90 1.22 | cpu 0.0% | memory 1% used of 23.5G | procs 7, 1 running | uptime 10h 28m 59s

            """)
    }

    @Test func anUnknownOptionExitsWithStatus2AndTheUsage() async {
        let result = await #expect(processExitsWith: .exitCode(2), observing: [\.standardErrorContent]) {
            await MonitorMain.run(arguments: ["--no-such-option"])
        }
        let error = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(error.hasPrefix("bindings-demo: unknown option '--no-such-option'\n\nUsage: bindings-demo [options]\n"))
    }

    @Test func onceReadsTheRootGiven() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            await MonitorMain.run(arguments: ["--once", "--sort", "pid", "--root", Fixture.root("small", "t1")])
        }
        let lines = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 9)
        #expect(lines[1] == "   PID▲ USER     S  CPU%  MEM%    RSS  THR COMMAND")
        #expect(lines[2].hasPrefix("      2 root"))
    }
}
