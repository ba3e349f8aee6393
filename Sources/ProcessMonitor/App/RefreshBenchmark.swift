/// `--benchmark-refresh DIR`: the CPU time of one refresh of a recording, from reading
/// its /proc to the bytes of the frame (80 by 24), measured with the process's CPU clock.
///
/// The recording is played as a live /proc (see ``RecordingPlayback``): the steady
/// refresh is the one a running monitor makes each second, the third sample (`DIR/t2`)
/// read by a monitor that read the first two (`DIR/t0`, `DIR/t1`), through the files it
/// keeps open.
/// The first refresh of a new monitor (every process's user and command line read, every
/// file opened) is measured apart.
package enum RefreshBenchmark {
    /// Runs `rounds` of each measurement; returns the report.
    package static func run(fixture: String, rounds: Int = 200) throws(ProcError) -> String {
        let size = TerminalSize(width: 80, height: 24)
        let playback = try RecordingPlayback()
        var first: [Double] = []
        var steady: [Double] = []
        var reading: [Double] = []
        var processes = 0
        for _ in 0..<rounds {
            try playback.play(fixture + "/t0")
            let reader = try ProcReader(root: playback.root, pageSize: 4096)
            let ui = MonitorUI(monitor: Monitor(reader: reader, ticksPerSecond: 100), colors: true)
            var start = Clock.processCPUTime()
            try ui.monitor.refresh()
            _ = ui.render(size: size)
            first.append(Clock.processCPUTime() - start)

            try playback.play(fixture + "/t1")
            try ui.monitor.refresh()   // from here on, CPU figures are over an interval
            _ = ui.render(size: size)

            try playback.play(fixture + "/t2")
            start = Clock.processCPUTime()
            try ui.monitor.refresh()
            _ = ui.render(size: size)
            steady.append(Clock.processCPUTime() - start)
            processes = ui.monitor.system.processCount

            // The reading part of a steady refresh, alone.
            start = Clock.processCPUTime()
            _ = try reader.read()
            reading.append(Clock.processCPUTime() - start)
        }
        return """
            refresh of \(processes) processes (\(fixture)/t2 after t0 and t1), CPU time over \(rounds) runs:
              steady: \(summary(steady))
                of which reading /proc: \(summary(reading))
              first:  \(summary(first))

            """
    }

    private static func summary(_ seconds: [Double]) -> String {
        let sorted = seconds.sorted()
        func ms(_ value: Double) -> String { Format.decimal(value * 1000, places: 2) + " ms" }
        return "median \(ms(sorted[sorted.count / 2])), fastest \(ms(sorted[0])), slowest \(ms(sorted[sorted.count - 1]))"
    }
}
