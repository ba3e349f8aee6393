// How a cell looks. Only the eight basic ANSI colours (and bright black) are used: every
// colour terminal has them, and the user's theme decides their exact shades.

/// A foreground colour of a cell.
package enum Color: UInt8, Hashable, Sendable {
    case `default`, red, green, yellow, blue, magenta, cyan, brightBlack

    /// The SGR parameter that selects the colour.
    var sgrCode: Int {
        switch self {
        case .default: 39
        case .red: 31
        case .green: 32
        case .yellow: 33
        case .blue: 34
        case .magenta: 35
        case .cyan: 36
        case .brightBlack: 90
        }
    }
}

/// The look of a cell: a foreground colour, bold, and reverse video.
///
/// Bold and reverse video are not colours, so they stay when colour is off (`NO_COLOR`).
package struct Style: Hashable, Sendable {
    /// The foreground colour; ignored by the renderer when colour is off.
    package var foreground: Color
    /// Bold (or bright) text.
    package var bold: Bool
    /// Foreground and background swapped: the table's header and the status line.
    package var reverse: Bool

    /// Creates a style.
    package init(_ foreground: Color = .default, bold: Bool = false, reverse: Bool = false) {
        self.foreground = foreground
        self.bold = bold
        self.reverse = reverse
    }

    /// The terminal's default look.
    package static let plain = Style()

    /// The SGR sequence that sets this style from any other: it resets first, so that it
    /// does not depend on what the terminal had.
    func sgr(colors: Bool) -> String {
        var sequence = "\u{1B}[0"
        if bold { sequence += ";1" }
        if reverse { sequence += ";7" }
        if colors, foreground != .default { sequence += ";\(foreground.sgrCode)" }
        return sequence + "m"
    }
}
