import Testing
import Bindings
import ProcessMonitor

/// The models: what a refresh stores, their computed key paths, the batch around a
/// refresh, and the rows the table model derives.
@Suite struct ModelTests {
    @Test func computedPropertiesOfARecordedRefresh() throws {
        let system = try Fixture.monitor("small").system
        #expect(system.uptimeText == "10h 29m 0s")
        #expect(system.loadText == "0.88 0.90 1.22")
        #expect(system.loadHistory == [0.88, 0.88])
        #expect(system.loadSparkline == "▄▄")   // 0.88 of 2 CPUs: the middle block
        #expect(system.tasksText == "1 running, 7 total")
        #expect(system.memoryText == "329M/23.5G")
        #expect(system.swapText == "0/0")
        #expect(system.memoryUsedPercent == Double(336712) / Double(24684084) * 100)
        // t0 to t1: user 250 ticks, system 4, idle 0 (both CPUs busy).
        #expect(system.cpuTotal == CPUUsage(user: 250.0 / 254, system: 4.0 / 254, other: 0))
        #expect(system.cpus[1] == CPUUsage(user: 123.0 / 126, system: 3.0 / 126, other: 0))
        #expect(system.summaryLine == "load 0.88 0.90 1.22 | cpu 100.0% | memory 1% used of 23.5G | procs 7, 1 running | uptime 10h 29m 0s")
    }

    @Test func processCPUIsOverTheIntervalAfterTheFirstRefresh() throws {
        // sh (9612): 120 ticks at t0, started at 3773808 ticks (37738.08 s), uptime 37739.14.
        let first = try Fixture.monitor("small", samples: ["t0"])
        #expect(first.table.processes.first { $0.pid == 9612 }?.cpuTenths == 1132)   // 1.20 s in 1.06 s
        // t1: 239 ticks, 1.28 s later: 1.19 s of CPU.
        let second = try Fixture.monitor("small")
        #expect(second.table.processes.first { $0.pid == 9612 }?.cpuTenths == 930)
        #expect(second.table.processes.first { $0.pid == 9609 }?.cpuTenths == 0)
        #expect(second.table.processes.first { $0.pid == 9612 }?.memoryTenths == 0)   // 1424 KiB of 23.5 GiB
    }

    @Test func aRefreshIsOneBatch() throws {
        let reader = try Fixture.reader("small", "t0")
        let monitor = Monitor(reader: reader, ticksPerSecond: 100)
        try monitor.refresh()
        try reader.switchRoot(to: Fixture.root("small", "t1"))
        var lines: [String] = []
        let observation = monitor.system.observe(\.summaryLine, options: [.new]) { _, change in
            lines.append(change.newValue!)
        }
        var changesets = 0
        let rows = monitor.table.rows.changes.sink { _ in changesets += 1 }
        #expect(changesets == 1)   // the rows so far, to a new subscriber
        try monitor.refresh()
        // Nine properties were set; the summary, which reads most of them, changed once.
        #expect(lines == [monitor.system.summaryLine])
        #expect(changesets == 2)   // the rows, derived once after the batch
        withExtendedLifetime((observation, rows)) {}
    }

    @Test func rowsAreSortedByTheColumnThenByPid() throws {
        let table = try Fixture.monitor("small").table
        #expect(table.rows.map(\.pid) == [9612, 2, 3, 4, 9609, 9610, 9611])   // CPU, descending; ties by pid
        table.sortColumn = .user
        table.sortDescending = false
        #expect(table.rows.map(\.user) == ["daemon", "nobody", "root", "root", "root", "root", "root"])
        table.sortColumn = .memory
        table.sortDescending = true
        #expect(table.rows.map(\.pid) == [9609, 9610, 9611, 9612, 2, 3, 4])   // 1700, 1640, 1636, 1424 KiB, then 0
        table.sortColumn = .pid
        #expect(table.rows.map(\.pid) == [9612, 9611, 9610, 9609, 4, 3, 2])
        table.sortColumn = .command
        table.sortDescending = false
        #expect(table.rows.map(\.command) == ["[kthreadd]", "[kworker/R-rcu_gp]", "[pool_workqueue_release]", "sh -c while :; do :; done", "sleep 600", "sleep 601", "tail -f /dev/null"])
    }

    @Test func sortKeysCycleEachInItsNaturalDirection() throws {
        let table = ProcessTableModel()
        var seen: [String] = [table.sortTitle]
        for _ in 0..<6 {
            table.cycleSortColumn()
            seen.append(table.sortTitle)
        }
        #expect(seen == ["CPU% ▼", "MEM% ▼", "PID ▲", "USER ▲", "THR ▼", "COMMAND ▲", "CPU% ▼"])
        table.reverseSortOrder()
        #expect(table.sortTitle == "CPU% ▲")
    }

    @Test func theFilterNarrowsTheRows() throws {
        let table = try Fixture.monitor("small").table
        table.filter = "SLEEP"   // case does not matter
        #expect(table.rows.map(\.pid) == [9609, 9610])
        #expect(table.shownText == "2 of 7")
        table.filter = "nobody"   // a user
        #expect(table.rows.map(\.pid) == [9610])
        table.filter = "961"   // the start of a pid
        #expect(table.rows.map(\.pid) == [9612, 9610, 9611])
        table.filter = ""
        #expect(table.rows.count == 7)
    }

    @Test func aNewOrderSendsTheRowsAnewAndARefreshOnlyTheDifference() throws {
        let table = try Fixture.monitor("small").table
        var edits: [[CollectionChange<ProcessRow>.Edit]] = []
        let subscription = table.rows.changes.dropFirst().sink { edits.append($0.changes) }
        table.sortColumn = .pid   // still descending: every row moves
        #expect(edits.count == 2)
        #expect(edits[0] == (0..<7).reversed().map { .delete(at: $0) })
        #expect(edits[1] == table.rows.elements.enumerated().map { .insert($1, at: $0) })
        edits = []
        var processes = table.processes
        processes[processes.firstIndex { $0.pid == 9610 }!].threads = 2
        table.processes = processes
        #expect(edits == [[.update(processes.first { $0.pid == 9610 }!, at: 2)]])   // 9612, 9611, 9610...
        withExtendedLifetime(subscription) {}
    }
}
