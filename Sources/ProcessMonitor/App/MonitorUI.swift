/// The views of a ``Monitor``, bound to its models, and the renderer that draws them.
package final class MonitorUI {
    /// The monitor shown.
    package let monitor: Monitor
    /// The screen's views and layout.
    package let screen: MonitorScreen
    private let keys: KeyController
    private var decoder = KeyDecoder()
    private var renderer: FrameRenderer

    /// Views bound to `monitor`'s models, drawing with colours or not.
    package init(monitor: Monitor, colors: Bool) {
        self.monitor = monitor
        let header = HeaderView()
        let meters = MetersView(colors: colors)
        let table = ProcessTableView()
        let field = FilterFieldView()
        let status = StatusLineView()
        header.bind(to: monitor.system)
        meters.bind(to: monitor.system)
        table.bind(to: monitor.table)
        field.bind(to: monitor.table)
        status.bind(to: monitor.table, state: monitor.state)
        screen = MonitorScreen(header: header, meters: meters, table: table, field: field, status: status)
        keys = KeyController(table: monitor.table, field: field, state: monitor.state, view: table)
        renderer = FrameRenderer(colors: colors)
    }

    /// Handles the bytes the user typed: what to do after them (the strongest outcome
    /// of their keys: quit, then a full redraw, then a redraw).
    package func handleInput(_ bytes: some Sequence<UInt8>) -> KeyOutcome {
        var outcome = KeyOutcome.ignored
        for key in decoder.decode(bytes) {
            switch keys.handle(key) {
            case .quit: return .quit
            case .fullRedraw: outcome = .fullRedraw
            case .redraw where outcome == .ignored: outcome = .redraw
            default: break
            }
        }
        return outcome
    }

    /// The frame of the screen at `size`.
    package func frame(size: TerminalSize) -> Frame {
        screen.frame(size: size)
    }

    /// The bytes that bring the terminal to the frame at `size`: only the changed cells,
    /// unless `full` (or the size changed).
    package func render(size: TerminalSize, full: Bool = false) -> [UInt8] {
        if full { renderer.invalidate() }
        return renderer.render(frame(size: size))
    }
}
