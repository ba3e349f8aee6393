import Testing
import Bindings
import ProcessMonitor

/// The views' bindings: the table driven by the rows' changesets, the filter bound both
/// ways, the status line's reaction, and bindings ending with their views.
@Suite struct ViewBindingTests {
    @Test func theTableMirrorsTheRowsThroughTheirChangesets() throws {
        let reader = try Fixture.reader("small", "t0")
        let monitor = Monitor(reader: reader, ticksPerSecond: 100)
        let view = ProcessTableView()
        view.bind(to: monitor.table)
        try monitor.refresh()
        #expect(view.rows == monitor.table.rows.elements)
        try reader.switchRoot(to: Fixture.root("small", "t1"))
        try monitor.refresh()
        #expect(view.rows == monitor.table.rows.elements)
        monitor.table.sortColumn = .command   // still descending
        #expect(view.rows == monitor.table.rows.elements)
        #expect(view.rows.map(\.pid) == [9611, 9610, 9609, 9612, 3, 4, 2])
        monitor.table.filter = "ee"
        #expect(view.rows.map(\.pid) == [9610, 9609])
    }

    @Test func aChangesetReformatsOnlyTheVisibleRowsItChanged() throws {
        let monitor = try Fixture.monitor("small")
        let view = ProcessTableView()
        view.bind(to: monitor.table)
        var frame = Frame(size: TerminalSize(width: 60, height: 4))
        view.draw(into: &frame, row: 0, height: 4)   // the header and rows 0 to 2
        #expect(view.rowsFormatted == 3)
        view.draw(into: &frame, row: 0, height: 4)
        #expect(view.rowsFormatted == 3)   // nothing changed: nothing formatted
        var processes = monitor.table.processes
        processes[processes.firstIndex { $0.pid == 9612 }!].residentKiB = 2048   // row 0
        processes[processes.firstIndex { $0.pid == 9611 }!].residentKiB = 4096   // row 6, not shown
        monitor.table.processes = processes
        view.draw(into: &frame, row: 0, height: 4)
        #expect(view.rowsFormatted == 4)   // row 0 only
        #expect(frame.lines[1] == "   9612 root     R  93.0   0.0   2.0M    1 sh -c while :; do")
        view.draw(into: &frame, row: 0, height: 8)   // taller: rows 3 to 6 appear
        #expect(view.rowsFormatted == 8)
    }

    @Test func theFilterIsBoundBothWays() throws {
        let table = try Fixture.monitor("small").table
        let field = FilterFieldView()
        table.filter = "sleep"
        field.bind(to: table)
        #expect(field.text == "sleep")   // the field takes the model's value
        field.text = "tail"
        #expect(table.filter == "tail")
        #expect(table.rows.map(\.pid) == [9611])
        table.filter = "kworker"
        #expect(field.text == "kworker")
        field.text = nil   // a nil leaves the model as it is
        #expect(table.filter == "kworker")
    }

    @Test func bindingsEndWithTheirViews() throws {
        let monitor = try Fixture.monitor("small")
        var field: FilterFieldView? = FilterFieldView()
        field!.bind(to: monitor.table)
        weak let released = field
        field = nil
        #expect(released == nil)
        monitor.table.filter = "sleep"   // no field to write to, no trap
        #expect(monitor.table.rows.count == 2)

        var header: HeaderView? = HeaderView()
        header!.bind(to: monitor.system)
        #expect(header!.uptime == "10h 29m 0s")
        weak let releasedHeader = header
        header = nil
        #expect(releasedHeader == nil)
    }

    @Test func theStatusLineFollowsWhatItReads() throws {
        let monitor = try Fixture.monitor("small")
        let status = StatusLineView()
        status.bind(to: monitor.table, state: monitor.state)
        #expect(status.text == "CPU% ▼  7 of 7")
        monitor.table.filter = "sleep"
        #expect(status.text == "CPU% ▼  2 of 7")
        monitor.state.paused = true
        #expect(status.text == "CPU% ▼  2 of 7  paused")
        monitor.table.cycleSortColumn()
        #expect(status.text == "MEM% ▼  2 of 7  paused")
    }

    @Test func theHeaderFollowsTheModel() throws {
        let monitor = try Fixture.monitor("small", samples: ["t0"])
        let header = HeaderView()
        header.bind(to: monitor.system)
        #expect(header.uptime == "10h 28m 59s")
        #expect(header.sparkline == "▄")
        monitor.system.uptime += 62
        #expect(header.uptime == "10h 30m 1s")
    }
}
