import Testing
import ProcessMonitor

/// The parsers, against recorded /proc files and edge cases written out.
@Suite struct ProcParsingTests {
    @Test func loadAverageAndUptime() throws {
        let load = try Fixture.bytes("small", "t0", "loadavg").withUnsafeBytes(LoadAverage.parse)
        #expect(load == LoadAverage(one: 0.88, five: 0.90, fifteen: 1.22))
        let uptime = try Fixture.bytes("small", "t1", "uptime").withUnsafeBytes(Uptime.parse)
        #expect(uptime == 37740.42)
        #expect(withBytes("not a number", LoadAverage.parse) == nil)
    }

    @Test func cpuLinesOfStat() throws {
        let parsed = try #require(try Fixture.bytes("small", "t0", "stat").withUnsafeBytes(CPUTimes.parse))
        // cpu  4648055 0 465223 2393150 14274 0 2408 3082 0 0
        #expect(parsed.total == CPUTimes(user: 4648055, system: 465223 + 2408, other: 14274 + 0 + 3082, idle: 2393150))
        #expect(parsed.perCPU.count == 2)
        // cpu1 2311298 0 240137 1197260 10864 0 2066 1520 0 0
        #expect(parsed.perCPU[1] == CPUTimes(user: 2311298, system: 240137 + 2066, other: 10864 + 1520, idle: 1197260))
        #expect(withBytes("intr 1 2 3\n", CPUTimes.parse) == nil)
    }

    @Test func memoryInfo() throws {
        let memory = try #require(try Fixture.bytes("small", "t1", "meminfo").withUnsafeBytes(MemoryInfo.parse))
        #expect(memory.totalKiB == 24684084)
        #expect(memory.freeKiB == 18711680)
        #expect(memory.buffersKiB == 145152)
        #expect(memory.cacheKiB == 4702844 + 796568 - 8872)   // Cached + SReclaimable - Shmem
        #expect(memory.usedKiB == 24684084 - 18711680 - 145152 - (4702844 + 796568 - 8872))
        #expect(memory.swapTotalKiB == 0)
        #expect(withBytes("MemFree: 12 kB\n", MemoryInfo.parse) == nil)
    }

    @Test func processStatOfARecordedProcess() throws {
        let stat = try #require(try Fixture.bytes("small", "t1", "9612/stat").withUnsafeBytes(ProcessStat.parse))
        #expect(stat == ProcessStat(pid: 9612, name: "sh", state: "R", cpuTicks: 239, threads: 1, startTicks: 3773808, residentPages: 356))
    }

    @Test func processStatWithSpacesAndParenthesesInItsName() {
        // The name runs to the last ")": a program may call itself anything.
        let line = "42 (a (b) c) S 1 42 42 0 -1 0 0 0 0 0 7 5 0 0 20 0 3 0 99 0 12 0\n"
        let stat = withBytes(line, ProcessStat.parse)
        #expect(stat == ProcessStat(pid: 42, name: "a (b) c", state: "S", cpuTicks: 12, threads: 3, startTicks: 99, residentPages: 12))
        #expect(withBytes("42 (cut short) S 1 2", ProcessStat.parse) == nil)
    }

    @Test func statusCommandLineAndPasswd() throws {
        #expect(try Fixture.bytes("small", "t0", "9610/status").withUnsafeBytes(ProcessStatus.userID) == 65534)
        #expect(try Fixture.bytes("small", "t0", "9611/cmdline").withUnsafeBytes(ProcessCommandLine.parse) == "tail -f /dev/null")
        #expect(try Fixture.bytes("small", "t0", "2/cmdline").withUnsafeBytes(ProcessCommandLine.parse) == nil)
        let names = withBytes("root:x:0:0:root:/root:/bin/bash\nbroken line\nada:x:1000:1000::/home/ada:/bin/sh\nroot2:x:0:0::/:/bin/sh\n", UserNames.parse)
        #expect(names == [0: "root", 1000: "ada"])
    }

    @Test func readerReadsARecordedSystem() throws {
        let snapshot = try Fixture.reader("small", "t0").read()
        #expect(snapshot.hostname == "vm")
        #expect(snapshot.uptime == 37739.14)
        #expect(snapshot.cpus.count == 2)
        #expect(snapshot.processes.map(\.pid) == [2, 3, 4, 9609, 9610, 9611, 9612])
        #expect(snapshot.processes.map(\.user) == ["root", "root", "root", "root", "nobody", "daemon", "root"])
        #expect(snapshot.processes[3] == ProcessRecord(
            pid: 9609, user: "root", command: "sleep 600", state: "S", cpuTicks: 0, threads: 1,
            startTicks: 3773808, residentKiB: 425 * 4))
        #expect(snapshot.processes[0].command == "[kthreadd]")   // a kernel thread: its name
    }

    @Test func aMissingRootIsAnErrorThatSaysWhatToPass() {
        #expect(throws: ProcError("cannot open /nonexistent/proc: No such file or directory; pass --root a directory that holds proc/ (a recorded /proc), or leave it out to read this machine's")) {
            try ProcReader(root: "/nonexistent")
        }
    }

    @Test func aRootWithoutTheSystemFilesIsAnErrorNamingTheFile() throws {
        let root = try TemporaryDirectory()
        try root.write("37739.14 23931.50\n", to: "proc/uptime")
        let reader = try ProcReader(root: root.path, pageSize: 4096)
        #expect(throws: ProcError("cannot read \(root.path)/proc/loadavg: No such file or directory; a /proc root needs stat, meminfo, loadavg and uptime")) {
            try reader.read()
        }
    }
}
