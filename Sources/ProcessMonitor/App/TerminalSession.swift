/// The interactive monitor on a terminal, without the event sources that drive it (see
/// ``InteractiveRunner``): each event is a method that says whether to go on, so that
/// tests drive a session on a terminal they record.
///
/// Whatever ends the session (`q`, Ctrl-C, a signal, a refresh that fails) restores the
/// terminal first: raw mode off, the cursor shown, the main screen back.
package final class TerminalSession {
    /// How a session ended.
    package enum Ending: Equatable, Sendable {
        /// The user quit (`q`, Ctrl-C) or the duration ran out: status 0.
        case quit
        /// A signal (SIGINT, SIGTERM, SIGHUP) ended it: status 128 + the signal.
        case signal(Int32)
        /// A refresh failed: status 1, with the message.
        case failure(String)

        /// The process's exit status.
        package var status: Int32 {
            switch self {
            case .quit: 0
            case .signal(let number): 128 + number
            case .failure: 1
            }
        }
    }

    /// The views and models.
    package let ui: MonitorUI
    private let terminal: any TerminalDevice
    /// The size drawn at; read again on SIGWINCH.
    package private(set) var size: TerminalSize
    /// How the session ended, once it has.
    package private(set) var ending: Ending?

    /// A session of `ui` on `terminal`.
    package init(ui: MonitorUI, terminal: any TerminalDevice) {
        self.ui = ui
        self.terminal = terminal
        size = terminal.size() ?? TerminalSize(width: 80, height: 24)
    }

    /// Enters the terminal's raw mode and alternate screen, refreshes and draws. Returns
    /// `false` when the session ended (the refresh failed, or a signal came first: see
    /// ``ending``), leaving the terminal as it was.
    package func start() throws(TerminalError) -> Bool {
        guard ending == nil else { return false }
        try terminal.enter()
        return tick()
    }

    /// A refresh, unless paused, then a draw of what changed.
    @discardableResult
    package func tick() -> Bool {
        guard ending == nil else { return false }
        if !ui.monitor.state.paused {
            do {
                try ui.monitor.refresh()
            } catch {
                return end(.failure(error.description))
            }
        }
        draw()
        return true
    }

    /// The user typed `bytes`.
    @discardableResult
    package func input(_ bytes: some Sequence<UInt8>) -> Bool {
        guard ending == nil else { return false }
        switch ui.handleInput(bytes) {
        case .quit: return end(.quit)
        case .fullRedraw: draw(full: true)
        case .redraw: draw()
        case .ignored: break
        }
        return true
    }

    /// The terminal was resized: lay out again at the new size, drawing everything.
    package func resized() {
        guard ending == nil else { return }
        size = terminal.size() ?? size
        draw(full: true)
    }

    /// A signal asks the monitor to end.
    @discardableResult
    package func signal(_ number: Int32) -> Bool {
        end(.signal(number))
    }

    /// The duration ran out.
    @discardableResult
    package func timeUp() -> Bool {
        end(.quit)
    }

    private func draw(full: Bool = false) {
        terminal.write(ui.render(size: size, full: full))
    }

    /// Restores the terminal, once, and records why the session ended.
    private func end(_ reason: Ending) -> Bool {
        if ending == nil {
            ending = reason
            terminal.restore()
        }
        return false
    }
}
