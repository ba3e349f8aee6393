#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A number for a table: one decimal below 100, none above.
func formatNanoseconds(_ value: Double) -> String {
    guard value.isFinite else { return "—" }
    if value >= 100 { return String(Int(value.rounded())) }
    return String((value * 10).rounded() / 10)
}

/// A ratio for a table, with two significant decimals.
func formatRatio(_ value: Double, suffix: String = "") -> String {
    guard value.isFinite else { return "—" }
    if value >= 100 { return String(Int(value.rounded())) + suffix }
    return String((value * 100).rounded() / 100) + suffix
}

/// A Markdown table, printed with aligned columns.
struct Table {
    let header: [String]
    var rows: [[String]] = []

    init(_ header: [String]) { self.header = header }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render() -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { index, cell in
                cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// A JSON object of objects of numbers, keys in the order given.
struct JSONReport {
    private var entries: [(String, [(String, Double)])] = []

    mutating func add(_ key: String, _ fields: [(String, Double)]) { entries.append((key, fields)) }

    func render() -> String {
        func number(_ value: Double) -> String {
            guard value.isFinite else { return "null" }
            return String((value * 1000).rounded() / 1000)
        }
        let objects = entries.map { key, fields in
            "  \"\(key)\": {" + fields.map { "\"\($0.0)\": \(number($0.1))" }.joined(separator: ", ") + "}"
        }
        return "{\n" + objects.joined(separator: ",\n") + "\n}\n"
    }
}

/// Writes `text` to the file at `path`; false on failure.
func write(_ text: String, toFile path: String) -> Bool {
    guard let file = fopen(path, "w") else { return false }
    defer { fclose(file) }
    let bytes = Array(text.utf8)
    return fwrite(bytes, 1, bytes.count, file) == bytes.count
}

/// The first line of a small text file, such as /proc/loadavg.
func firstLine(ofFile path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return line.hasSuffix("\n") ? String(line.dropLast()) : line
}

/// Writes progress to standard error, so that standard output is only the report.
func progress(_ message: String) {
    writeToStandardError("compare: \(message)\n")
}

/// Writes to file descriptor 2 (the C `stderr` variable is shared mutable state to Swift 6).
func writeToStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
