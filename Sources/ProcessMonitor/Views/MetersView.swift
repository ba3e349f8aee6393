import Bindings

/// The usage bars: one per CPU, in a grid, then all CPUs, memory and swap. Its properties
/// are bound to the system model with `<~`.
package final class MetersView: BindingOwner {
    /// Each CPU's usage.
    package var cpus: [CPUUsage] = []
    /// All CPUs' usage.
    package var cpuTotal = CPUUsage()
    /// Memory and swap figures.
    package var memory = MemoryInfo()
    /// "1.2G/23.5G".
    package var memoryText: String?
    /// "0/2.0G".
    package var swapText: String?
    /// Where the bindings live; they end with the view.
    package var subscriptions = Set<AnyCancellable>()
    /// Whether bars are drawn in colour.
    package let colors: Bool

    /// A view drawing in colour or not.
    package init(colors: Bool) {
        self.colors = colors
    }

    /// Binds the view to `system`.
    package func bind(to system: SystemModel) {
        reactive.cpus <~ system.reactive.cpus
        reactive.cpuTotal <~ system.reactive.cpuTotal
        reactive.memory <~ system.reactive.memory
        reactive.memoryText <~ system.reactive.memoryText
        reactive.swapText <~ system.reactive.swapText
    }

    /// The columns of the per-CPU grid at `width`: one per 40 columns, at most four,
    /// and no more than there are CPUs.
    package func gridColumns(width: Int) -> Int {
        max(1, min(4, width / 40, cpus.count))
    }

    /// The width of every meter's label: the longest CPU's ("cpu11") and a space, so
    /// that all the bars start in the same column.
    package var labelWidth: Int { max(4, "cpu\(max(0, cpus.count - 1))".count + 1) }

    /// The rows the per-CPU grid takes at `width`.
    package func gridRows(width: Int) -> Int {
        cpus.isEmpty ? 0 : (cpus.count + gridColumns(width: width) - 1) / gridColumns(width: width)
    }

    /// Draws the per-CPU grid from `row`, CPUs numbered down each column.
    package func drawGrid(into frame: inout Frame, row: Int) {
        let width = frame.size.width
        let columns = gridColumns(width: width)
        let rows = gridRows(width: width)
        let gap = 2
        let columnWidth = (width - gap * (columns - 1)) / columns
        let labelWidth = self.labelWidth
        for (index, usage) in cpus.enumerated() {
            let meter = Meter(label: "cpu\(index)", segments: Self.segments(of: usage), text: Self.percent(usage))
            meter.draw(
                into: &frame, row: row + index % rows, column: (index / rows) * (columnWidth + gap),
                width: columnWidth, labelWidth: labelWidth, colors: colors)
        }
    }

    /// Draws the bar of all CPUs on `row`.
    package func drawTotal(into frame: inout Frame, row: Int) {
        Meter(label: "cpu", segments: Self.segments(of: cpuTotal), text: Self.percent(cpuTotal))
            .draw(into: &frame, row: row, column: 0, width: frame.size.width, labelWidth: labelWidth, colors: colors)
    }

    /// Draws the memory bar on `row`: used, buffers, cache.
    package func drawMemory(into frame: inout Frame, row: Int) {
        let total = Double(max(1, memory.totalKiB))
        let segments = [
            Meter.Segment(Double(memory.usedKiB) / total, .green, "|"),
            Meter.Segment(Double(memory.buffersKiB) / total, .blue, "#"),
            Meter.Segment(Double(memory.cacheKiB) / total, .yellow, ":"),
        ]
        Meter(label: "mem", segments: segments, text: memoryText ?? "")
            .draw(into: &frame, row: row, column: 0, width: frame.size.width, labelWidth: labelWidth, colors: colors)
    }

    /// Draws the swap bar on `row`.
    package func drawSwap(into frame: inout Frame, row: Int) {
        let fraction = memory.swapTotalKiB > 0 ? Double(memory.swapUsedKiB) / Double(memory.swapTotalKiB) : 0
        Meter(label: "swp", segments: [Meter.Segment(fraction, .red, "|")], text: swapText ?? "")
            .draw(into: &frame, row: row, column: 0, width: frame.size.width, labelWidth: labelWidth, colors: colors)
    }

    private static func segments(of usage: CPUUsage) -> [Meter.Segment] {
        [Meter.Segment(usage.user, .green, "|"), Meter.Segment(usage.system, .red, "#"), Meter.Segment(usage.other, .yellow, ":")]
    }

    private static func percent(_ usage: CPUUsage) -> String {
        Format.decimal(usage.busy * 100, places: 1) + "%"
    }
}
