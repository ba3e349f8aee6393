import Testing
import Bindings
import ProcessMonitor

/// The screen laid out on terminals of several sizes: exact frames of the small
/// recording (t1 after t0), monochrome (the glyphs then tell the bars' parts apart).
@Suite struct ViewLayoutTests {
    private func frame(width: Int, height: Int, colors: Bool = false) throws -> [String] {
        MonitorUI(monitor: try Fixture.monitor("small"), colors: colors).frame(size: TerminalSize(width: width, height: height)).lines
    }

    @Test func wideTerminal() throws {
        #expect(try frame(width: 80, height: 16) == [
            "vm  up 10h 29m 0s                                       tasks 1 running, 7 total",
            "load 0.88 0.90 1.22  ▄▄",
            "cpu0 [||||||||||||||||||||||||||100.0%]  cpu1 [||||||||||||||||||||||||||100.0%]",
            "cpu  [|||||||||||||||||||||||||||||||||||||||||||||||||||||||||||||||||||100.0%]",
            "mem  [|:::::::::::::::::                                             329M/23.5G]",
            "swp  [                                                                      0/0]",
            "    PID USER     S CPU%▼  MEM%    RSS  THR COMMAND",
            "   9612 root     R  93.0   0.0   1.4M    1 sh -c while :; do :; done",
            "      2 root     S   0.0   0.0      0    1 [kthreadd]",
            "      3 root     S   0.0   0.0      0    1 [pool_workqueue_release]",
            "      4 root     I   0.0   0.0      0    1 [kworker/R-rcu_gp]",
            "   9609 root     S   0.0   0.0   1.7M    1 sleep 600",
            "   9610 nobody   S   0.0   0.0   1.6M    1 sleep 601",
            "   9611 daemon   S   0.0   0.0   1.6M    1 tail -f /dev/null",
            "",
            "s sort  S reverse  / filter  p pause  q quit                      CPU% ▼  7 of 7",
        ])
    }

    @Test func narrowTerminalsDropColumnsAndSections() throws {
        // 50 columns: THR goes first; 12 rows: the per-CPU grid goes first.
        #expect(try frame(width: 50, height: 12) == [
            "vm  up 10h 29m 0s         tasks 1 running, 7 total",
            "load 0.88 0.90 1.22  ▄▄",
            "cpu  [|||||||||||||||||||||||||||||||||||||100.0%]",
            "mem  [|:::::::::                       329M/23.5G]",
            "swp  [                                        0/0]",
            "    PID USER     S CPU%▼  MEM%    RSS COMMAND",
            "   9612 root     R  93.0   0.0   1.4M sh -c while",
            "      2 root     S   0.0   0.0      0 [kthreadd]",
            "      3 root     S   0.0   0.0      0 [pool_workqu",
            "      4 root     I   0.0   0.0      0 [kworker/R-r",
            "   9609 root     S   0.0   0.0   1.7M sleep 600",
            "s sort  S reverse  / filter         CPU% ▼  7 of 7",
        ])
        // 40 by 10: RSS and S go; swap and the load line too. The tasks no longer fit
        // beside the uptime. (The used memory rounds to no cell; buffers to one.)
        #expect(try frame(width: 40, height: 10) == [
            "vm  up 10h 29m 0s",
            "cpu  [|||||||||||||||||||||||||||100.0%]",
            "mem  [#:::::::               329M/23.5G]",
            "    PID USER     CPU%▼  MEM% COMMAND",
            "   9612 root      93.0   0.0 sh -c while",
            "      2 root       0.0   0.0 [kthreadd]",
            "      3 root       0.0   0.0 [pool_workq",
            "      4 root       0.0   0.0 [kworker/R-",
            "   9609 root       0.0   0.0 sleep 600",
            "s sort  S reverse         CPU% ▼  7 of 7",
        ])
        #expect(try frame(width: 24, height: 6) == [
            "vm  up 10h 29m 0s",
            "    PID CPU%▼ COMMAND",
            "   9612  93.0 sh -c whil",
            "      2   0.0 [kthreadd]",
            "      3   0.0 [pool_work",
            "s sort    CPU% ▼  7 of 7",
        ])
    }

    @Test func columnsDropInTheDefinedOrder() {
        #expect(TableLayout(width: 80).shown == [.pid, .user, .state, .cpu, .memory, .resident, .threads, .command])
        #expect(TableLayout(width: 52).shown == [.pid, .user, .state, .cpu, .memory, .resident, .command])
        #expect(TableLayout(width: 47).shown == [.pid, .user, .state, .cpu, .memory, .command])
        #expect(TableLayout(width: 40).shown == [.pid, .user, .cpu, .memory, .command])
        #expect(TableLayout(width: 30).shown == [.pid, .cpu, .memory, .command])
        #expect(TableLayout(width: 20).shown == [.pid, .cpu, .command])
        #expect(TableColumn.dropOrder == [.threads, .resident, .state, .user, .memory])
    }

    @Test func aGridOfFourCPUsInTwoColumns() {
        let system = SystemModel()
        system.cpus = [CPUUsage(user: 0.5), CPUUsage(user: 0.25, system: 0.25), CPUUsage(), CPUUsage(other: 1)]
        let meters = MetersView(colors: false)
        meters.bind(to: system)
        var frame = Frame(size: TerminalSize(width: 80, height: 2))
        meters.drawGrid(into: &frame, row: 0)
        // Two columns of 39 (80 less a gap of 2); bars of 32 cells after "cpuN [".
        #expect(frame.lines == [
            "cpu0 [" + String(repeating: "|", count: 16) + String(repeating: " ", count: 11) + "50.0%]  "
                + "cpu2 [" + String(repeating: " ", count: 28) + "0.0%]",
            "cpu1 [" + String(repeating: "|", count: 8) + String(repeating: "#", count: 8) + String(repeating: " ", count: 11) + "50.0%]  "
                + "cpu3 [" + String(repeating: ":", count: 26) + "100.0%]",
        ])
    }

    @Test func colourDrawsEveryPartWithABarInItsColour() throws {
        let frame = MonitorUI(monitor: try Fixture.monitor("small"), colors: true).frame(size: TerminalSize(width: 40, height: 10))
        #expect(frame.lines[2] == "mem  [||||||||               329M/23.5G]")
        #expect(frame[2, 6] == Cell("|", Style(.blue)))     // buffers
        #expect(frame[2, 7] == Cell("|", Style(.yellow)))   // cache
        #expect(frame[3, 0].style == Style(.green, reverse: true))   // the table's header
    }
}
