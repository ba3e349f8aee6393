import Testing
import ProcessMonitor

/// The changed-cells renderer: exact bytes for small frames, and the bytes a typical
/// refresh writes.
@Suite struct RendererTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private func frame(_ rows: [String], width: Int) -> Frame {
        var frame = Frame(size: TerminalSize(width: width, height: rows.count))
        for (row, text) in rows.enumerated() { frame.draw(text, row: row, column: 0) }
        return frame
    }

    @Test func theFirstFrameClearsAndWritesWhatIsNotBlank() {
        var renderer = FrameRenderer(colors: true)
        var first = frame(["ab", " c"], width: 3)
        first[1, 2] = Cell("d", Style(.red, bold: true))
        #expect(text(renderer.render(first)) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1Hab\u{1B}[2;2Hc\u{1B}[0;1;31md")
    }

    @Test func aFrameWritesOnlyTheCellsThatChanged() {
        var renderer = FrameRenderer(colors: true)
        _ = renderer.render(frame(["hello world", "second row"], width: 12))
        // One cell: a move and a character.
        #expect(text(renderer.render(frame(["hello World", "second row"], width: 12))) == "\u{1B}[1;7HW")
        // Nothing changed: nothing written.
        #expect(renderer.render(frame(["hello World", "second row"], width: 12)) == [])
        // Two changes three cells apart: rewritten as one run (cheaper than a move).
        #expect(text(renderer.render(frame(["hello World", "sEcoNd row"], width: 12))) == "\u{1B}[2;2HEcoN")
        // Further apart: the cursor moves forward on the row.
        #expect(text(renderer.render(frame(["Hello WorlD", "sEcoNd row"], width: 12))) == "\u{1B}[1;1HH\u{1B}[9CD")
    }

    @Test func aNewSizeOrAnInvalidationDrawsEverything() {
        var renderer = FrameRenderer(colors: true)
        _ = renderer.render(frame(["ab"], width: 2))
        #expect(text(renderer.render(frame(["ab", "c"], width: 2))) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1Hab\u{1B}[2;1Hc")
        renderer.invalidate()
        #expect(text(renderer.render(frame(["ab", "c"], width: 2))) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1Hab\u{1B}[2;1Hc")
    }

    @Test func withoutColourStylesKeepBoldAndReverseOnly() {
        var renderer = FrameRenderer(colors: false)
        var styled = Frame(size: TerminalSize(width: 2, height: 1))
        styled[0, 0] = Cell("x", Style(.green, reverse: true))
        styled[0, 1] = Cell("y", Style(.red))
        #expect(text(renderer.render(styled)) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0;7mx\u{1B}[0my")
    }

    @Test func aTypicalRefreshOfOneRowWritesAFewBytes() throws {
        // A full 80 by 24 screen of the small recording, then the same with one process's
        // CPU figure changed (as after a refresh where only it moved).
        let reader = try Fixture.reader("small", "t0")
        let monitor = Monitor(reader: reader, ticksPerSecond: 100)
        try monitor.refresh()
        try reader.switchRoot(to: Fixture.root("small", "t1"))
        try monitor.refresh()
        let ui = MonitorUI(monitor: monitor, colors: true)
        let size = TerminalSize(width: 80, height: 24)
        let full = ui.render(size: size)
        // The whole screen: the baseline (a change of the layout changes it, and this).
        #expect(full.count == 1304)
        var processes = monitor.table.processes
        let index = processes.firstIndex { $0.pid == 9612 }!
        processes[index].cpuTenths = 871   // 93.0 -> 87.1: still the first row
        monitor.table.processes = processes
        let bytes = ui.render(size: size)
        // " 93.0" -> " 87.1" in columns 20 to 24 of row 8: three cells changed, the "."
        // between rewritten to make one run; a move (7 bytes), bold for a running process
        // (6), the text (4).
        #expect(text(bytes) == "\u{1B}[8;21H\u{1B}[0;1m87.1")
        #expect(bytes.count == 17)
    }
}
