import ProcessMonitor

/// A terminal of a given size that records what the session does to it.
final class RecordingTerminal: TerminalDevice {
    /// The size it reports; a test changes it before a resize.
    var currentSize: TerminalSize?
    /// Every byte written, in order.
    private(set) var written: [UInt8] = []
    /// What happened: "enter", "write", "restore", in order.
    private(set) var events: [String] = []
    /// Make ``enter()`` fail with this.
    var enterError: TerminalError?

    init(width: Int, height: Int) {
        currentSize = TerminalSize(width: width, height: height)
    }

    func size() -> TerminalSize? { currentSize }

    func enter() throws(TerminalError) {
        if let enterError { throw enterError }
        events.append("enter")
    }

    func restore() { events.append("restore") }

    func write(_ bytes: [UInt8]) {
        events.append("write")
        written += bytes
    }

    /// Forgets the bytes written so far.
    func clearWritten() { written = [] }

    /// The number of times ``restore()`` was called.
    var restoreCount: Int { events.filter { $0 == "restore" }.count }
}
