import Testing
import ProcessMonitor

/// The reader on a recording played as a live /proc: files kept open read the next
/// sample, processes that end are dropped, new ones are read in full.
@Suite struct ProcReaderTests {
    @Test func openFilesReadTheNextSample() throws {
        let playback = try RecordingPlayback()
        try playback.play(Fixture.root("small", "t0"))
        let reader = try ProcReader(root: playback.root, pageSize: 4096)
        let first = try reader.read()
        #expect(first.processes.first { $0.pid == 9612 }?.cpuTicks == 120)
        try playback.play(Fixture.root("small", "t1"))
        let second = try reader.read()
        #expect(second.processes.first { $0.pid == 9612 }?.cpuTicks == 239)
        #expect(second.uptime == 37740.42)
    }

    @Test func endedAndNewProcessesAreNoticed() throws {
        let playback = try RecordingPlayback()
        try playback.play(Fixture.root("small", "t0"))
        let reader = try ProcReader(root: playback.root, pageSize: 4096)
        _ = try reader.read()
        // A recording without 9609, and with a new process in its place under another pid.
        let next = try TemporaryDirectory()
        for file in ["stat", "meminfo", "loadavg", "uptime"] {
            try next.write(String(decoding: try Fixture.bytes("small", "t1", file), as: UTF8.self), to: "proc/\(file)")
        }
        try next.write("777 (editor) S 1 777 777 0 -1 0 0 0 0 0 3 4 0 0 20 0 2 0 3773900 0 50 0\n", to: "proc/777/stat")
        try next.write("Name:\teditor\nUid:\t1000\t1000\t1000\t1000\n", to: "proc/777/status")
        try next.write("vi\0notes.txt\0", to: "proc/777/cmdline")
        try playback.play(next.path)
        let snapshot = try reader.read()
        #expect(snapshot.processes.map(\.pid) == [777])
        #expect(snapshot.processes[0] == ProcessRecord(
            pid: 777, user: "ada", command: "vi notes.txt", state: "S", cpuTicks: 7, threads: 2,
            startTicks: 3773900, residentKiB: 200))
    }

    @Test func textIsMadeSafeForTheGrid() {
        #expect(String(String.UnicodeScalarView(DisplayText.scalars("a\tb\u{1B}[2Jc"))) == "a?b?[2Jc")
        #expect(String(String.UnicodeScalarView(DisplayText.scalars("cafe\u{301} 日本 ok"))) == "cafe ?? ok")
        #expect(String(String.UnicodeScalarView(DisplayText.scalars("café ▁█"))) == "café ▁█")
    }
}
