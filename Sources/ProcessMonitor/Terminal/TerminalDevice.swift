/// What the interactive monitor needs of a terminal: its size, a screen mode to enter
/// and leave, and somewhere to write. ``SystemTerminal`` is the real one; tests use one
/// that records.
package protocol TerminalDevice: AnyObject {
    /// The size now, or `nil` when it cannot be known.
    func size() -> TerminalSize?
    /// Enters the monitor's mode: raw input, the alternate screen, the cursor hidden.
    func enter() throws(TerminalError)
    /// Leaves it, restoring the terminal as it was found. Safe to call more than once,
    /// and before ``enter()``.
    func restore()
    /// Writes bytes to the screen.
    func write(_ bytes: [UInt8])
}

/// A terminal that cannot be put in the monitor's mode.
package struct TerminalError: Error, CustomStringConvertible, Equatable {
    /// What failed and what to do about it.
    package let description: String

    /// Creates an error with its message.
    package init(_ description: String) {
        self.description = description
    }
}

/// The escape sequences the monitor writes around its frames (xterm's, which every
/// terminal emulator in use understands).
package enum TerminalSequences {
    /// Switch to the alternate screen (the user's scrollback stays untouched), hide the
    /// cursor, and clear.
    package static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[2J"
    /// Reset the style, show the cursor, and go back to the main screen.
    package static let leave = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
}
