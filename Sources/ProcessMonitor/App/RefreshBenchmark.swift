/// `--benchmark-refresh DIR`: the CPU time of one refresh of a recording, from reading
/// its /proc to the bytes of the frame (80 by 24), measured with the process's CPU clock.
///
/// The steady refresh is the one a running monitor makes each second: the recording's
/// second sample (`DIR/t1`) read by a monitor that read the first (`DIR/t0`), so every
/// process is known. The first refresh of a new monitor (`DIR/t0`, every user and command
/// line read) is measured apart.
package enum RefreshBenchmark {
    /// Runs `rounds` of each measurement; returns the report.
    package static func run(fixture: String, rounds: Int = 200) throws(ProcError) -> String {
        let first = fixture + "/t0"
        let second = fixture + "/t1"
        let size = TerminalSize(width: 80, height: 24)
        var cold: [Double] = []
        var steady: [Double] = []
        var processes = 0
        for _ in 0..<rounds {
            let reader = try ProcReader(root: first, pageSize: 4096)
            let ui = MonitorUI(monitor: Monitor(reader: reader, ticksPerSecond: 100), colors: true)
            var start = Clock.processCPUTime()
            try ui.monitor.refresh()
            _ = ui.render(size: size)
            cold.append(Clock.processCPUTime() - start)
            try reader.switchRoot(to: second)
            start = Clock.processCPUTime()
            try ui.monitor.refresh()
            _ = ui.render(size: size)
            steady.append(Clock.processCPUTime() - start)
            processes = ui.monitor.system.processCount
        }
        return """
            refresh of \(processes) processes (\(second) after \(first)), CPU time over \(rounds) runs:
              steady: \(summary(steady))
              first:  \(summary(cold))

            """
    }

    private static func summary(_ seconds: [Double]) -> String {
        let sorted = seconds.sorted()
        func ms(_ value: Double) -> String { Format.decimal(value * 1000, places: 2) + " ms" }
        return "median \(ms(sorted[sorted.count / 2])), fastest \(ms(sorted[0])), slowest \(ms(sorted[sorted.count - 1]))"
    }
}
