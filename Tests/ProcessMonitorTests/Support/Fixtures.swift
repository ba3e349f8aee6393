import ProcessMonitor

/// The recorded systems under `Fixtures/` (made by `Scripts/record-proc-fixture.sh`):
/// `small`, seven processes, and `busy`, 503. Each has two samples a second apart, `t0`
/// and `t1`, each a system root (`proc/`, `etc/passwd`).
enum Fixture {
    /// The directory of the fixtures, found from this file's path (no bundle needed).
    static let directory: String = {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }   // .../Support/Fixtures.swift
        return path + "/Fixtures"
    }()

    /// The root of `sample` of the recording `name`.
    static func root(_ name: String, _ sample: String) -> String {
        "\(directory)/\(name)/\(sample)"
    }

    /// A reader of the recording, with the recording machine's page size.
    static func reader(_ name: String, _ sample: String = "t0") throws -> ProcReader {
        try ProcReader(root: root(name, sample), pageSize: 4096)
    }

    /// A monitor that has refreshed from each of `samples` of the recording `name`, in
    /// order (one refresh each), with the recording machine's clock rate.
    static func monitor(_ name: String, samples: [String] = ["t0", "t1"], sortColumn: SortColumn = .cpu) throws -> Monitor {
        let reader = try reader(name, samples[0])
        let monitor = Monitor(reader: reader, sortColumn: sortColumn, interval: 1, ticksPerSecond: 100)
        for (index, sample) in samples.enumerated() {
            if index > 0 { try reader.switchRoot(to: root(name, sample)) }
            try monitor.refresh()
        }
        return monitor
    }

    /// The bytes of a file of the recording, for the parsers.
    static func bytes(_ name: String, _ sample: String, _ file: String) throws -> [UInt8] {
        let reader = try ProcFileReader(path: root(name, sample) + "/proc")
        guard let bytes = reader.withContents(of: file, { Array($0) }) else {
            throw ProcError("fixture file \(file) is missing")
        }
        return bytes
    }
}

/// Runs `body` with `text`'s bytes as a parser sees them.
func withBytes<Result>(_ text: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    Array(text.utf8).withUnsafeBytes(body)
}
