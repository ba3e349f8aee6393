/// One character cell of the screen: a character of display width one and its style.
package struct Cell: Hashable, Sendable {
    /// The character, always one column wide (see ``DisplayText``).
    package var scalar: Unicode.Scalar
    /// How it is drawn.
    package var style: Style

    /// Creates a cell.
    package init(_ scalar: Unicode.Scalar, _ style: Style = .plain) {
        self.scalar = scalar
        self.style = style
    }

    /// An empty cell, as a cleared screen has.
    package static let blank = Cell(" ")
}
