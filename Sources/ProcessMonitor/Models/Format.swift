/// How figures are written, in the table, the header and the plain lines. Written by
/// hand rather than with Foundation's formatters: the same on every machine and locale,
/// and cheap enough to run for every visible row on every refresh.
package enum Format {
    /// `value` with `places` decimals, rounded: `decimal(0.333, places: 2)` is "0.33".
    package static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let whole = String(scaled / scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard places > 0 else { return sign + whole }
        var fraction = String(scaled % scale)
        while fraction.count < places { fraction = "0" + fraction }
        return sign + whole + "." + fraction
    }

    /// A percentage given in tenths: "12.3", or whole from 1000 on ("1234"), which keeps
    /// it within five columns.
    package static func tenths(_ tenths: Int) -> String {
        tenths >= 10_000 ? String(tenths / 10) : decimal(Double(tenths) / 10, places: 1)
    }

    /// A size in KiB, in at most five characters: "512K", "9.8M", "117M", "23.5G".
    package static func kibibytes(_ kib: Int) -> String {
        guard kib > 0 else { return "0" }
        let units: [Character] = ["K", "M", "G", "T", "P"]
        var value = Double(kib)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit > 0, value < 100 { return decimal(value, places: 1) + String(units[unit]) }
        return String(Int(value.rounded())) + String(units[unit])
    }

    /// A duration: "3d 4h 5m 6s", "4h 5m 6s", days left out when zero.
    package static func duration(seconds: Double) -> String {
        let total = Int(max(0, seconds))
        let (days, hours, minutes, rest) = (total / 86_400, total / 3_600 % 24, total / 60 % 60, total % 60)
        return (days > 0 ? "\(days)d " : "") + "\(hours)h \(minutes)m \(rest)s"
    }

    /// A sparkline of `values`, one block per value, scaled to the largest (at least
    /// `floor`, so that an idle machine's small values stay low): "▁▂▄█".
    package static func sparkline(_ values: [Double], floor: Double) -> String {
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let top = max(floor, values.max() ?? 0)
        guard top > 0 else { return String(repeating: "▁", count: values.count) }
        return String(values.map { value in
            blocks[min(7, max(0, Int((value / top * 7).rounded())))]
        })
    }
}
