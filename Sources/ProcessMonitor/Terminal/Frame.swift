/// The size of a terminal or a frame, in character cells.
package struct TerminalSize: Hashable, Sendable {
    /// Columns.
    package var width: Int
    /// Rows.
    package var height: Int

    /// Creates a size.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// One screen's worth of cells: what the views draw into, and what ``FrameRenderer``
/// compares with the previous frame to write only what changed.
package struct Frame: Equatable, Sendable {
    /// Its size.
    package let size: TerminalSize
    /// The cells, row after row.
    package private(set) var cells: [Cell]

    /// A frame of blank cells.
    package init(size: TerminalSize) {
        let size = TerminalSize(width: max(0, size.width), height: max(0, size.height))
        self.size = size
        cells = Array(repeating: .blank, count: size.width * size.height)
    }

    /// The cell at `row`, `column`.
    package subscript(row: Int, column: Int) -> Cell {
        get { cells[row * size.width + column] }
        set { cells[row * size.width + column] = newValue }
    }

    /// Draws `text` from `column` of `row`, clipped to `width` columns (to the frame's
    /// right edge by default); returns the number of columns drawn. Rows and columns
    /// outside the frame draw nothing.
    @discardableResult
    package mutating func draw(
        _ text: some StringProtocol, row: Int, column: Int, width: Int? = nil, style: Style = .plain
    ) -> Int {
        draw(DisplayText.scalars(text), row: row, column: column, width: width, style: style)
    }

    /// Draws characters already made one column wide (see ``DisplayText``).
    @discardableResult
    package mutating func draw(
        _ scalars: [Unicode.Scalar], row: Int, column: Int, width: Int? = nil, style: Style = .plain
    ) -> Int {
        guard row >= 0, row < size.height, column >= 0, column < size.width else { return 0 }
        let limit = min(size.width - column, width ?? Int.max, scalars.count)
        guard limit > 0 else { return 0 }
        let start = row * size.width + column
        for offset in 0..<limit { cells[start + offset] = Cell(scalars[offset], style) }
        return limit
    }

    /// Sets the style of `width` cells from `column` of `row`, keeping their characters
    /// (a highlighted row, a reverse-video bar).
    package mutating func setStyle(_ style: Style, row: Int, column: Int, width: Int) {
        guard row >= 0, row < size.height else { return }
        let end = min(size.width, column + width)
        var index = row * size.width + max(0, column)
        for _ in max(0, column)..<max(max(0, column), end) {
            cells[index].style = style
            index += 1
        }
    }

    /// The text of `row`, trailing spaces kept: what a test compares.
    package func text(ofRow row: Int) -> String {
        var string = String.UnicodeScalarView()
        for column in 0..<size.width { string.append(self[row, column].scalar) }
        return String(string)
    }

    /// Every row's text, trailing spaces removed: a frame as a test expects it.
    package var lines: [String] {
        (0..<size.height).map { row in
            var line = text(ofRow: row)
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
