// The terminal is written the way curses writes it: the new frame is compared with the
// one on the screen, and only the cells that differ are written, with the cursor moved
// to each run of them. Nothing is written for a frame equal to the last, and a typical
// refresh (some figures change) writes a few hundred bytes instead of a screenful.

/// Turns frames into the bytes that bring the terminal from the last frame to the next.
///
/// The first frame, a frame of another size (after a resize) and the frame after
/// ``invalidate()`` are drawn in full: the screen is cleared, then every cell that is not
/// blank is written.
package struct FrameRenderer {
    /// Whether colours are written (off with `NO_COLOR`); bold and reverse video always are.
    package let colors: Bool
    /// The frame on the screen, or `nil` when the screen is unknown.
    private var previous: Frame?
    /// Where the cursor is, or `nil` when unknown (after writing the last column, the
    /// terminal's wrap rules make it unreliable).
    private var cursor: (row: Int, column: Int)?
    /// The style the terminal draws with, or `nil` when unknown.
    private var style: Style?

    /// A renderer for a screen it knows nothing of.
    package init(colors: Bool) {
        self.colors = colors
    }

    /// Forgets the screen, so that the next frame is drawn in full (after a resize, or
    /// when something else may have written to the terminal).
    package mutating func invalidate() {
        previous = nil
        cursor = nil
        style = nil
    }

    /// The bytes that change the screen from the last frame rendered to `frame`.
    package mutating func render(_ frame: Frame) -> [UInt8] {
        var output: [UInt8] = []
        let before: Frame
        if let previous, previous.size == frame.size {
            before = previous
        } else {
            // Clear in the default style, so that the blank cells need no writing.
            output += Array("\u{1B}[0m\u{1B}[2J".utf8)
            style = .plain
            cursor = nil
            before = Frame(size: frame.size)
        }
        for row in 0..<frame.size.height { renderRow(row, from: before, to: frame, into: &output) }
        previous = frame
        return output
    }

    /// Writes the runs of changed cells of `row`. Two runs separated by a few unchanged
    /// cells are written as one when rewriting those cells costs fewer bytes than moving
    /// the cursor over them.
    private mutating func renderRow(_ row: Int, from before: Frame, to after: Frame, into output: inout [UInt8]) {
        let width = after.size.width
        var column = 0
        while column < width {
            guard before[row, column] != after[row, column] else {
                column += 1
                continue
            }
            // A run starts here: it takes in the next change when at most `maximumGap`
            // unchanged cells lie between (rewriting them is cheaper than a cursor move,
            // which costs 4 bytes or more).
            var end = column + 1   // exclusive
            var probe = end
            while probe < width {
                if before[row, probe] != after[row, probe] {
                    end = probe + 1
                } else if probe - end + 1 > Self.maximumGap {
                    break
                }
                probe += 1
            }
            moveCursor(row: row, column: column, into: &output)
            for index in column..<end { write(after[row, index], into: &output) }
            cursor = end < width ? (row, end) : nil
            column = end
        }
    }

    /// The most unchanged cells rewritten to join two runs of changes.
    private static let maximumGap = 3

    private mutating func moveCursor(row: Int, column: Int, into output: inout [UInt8]) {
        if let cursor, cursor.row == row, cursor.column == column { return }
        if let cursor, cursor.row == row, column > cursor.column {
            output += Array("\u{1B}[\(column - cursor.column)C".utf8)   // forward on the same row
        } else {
            output += Array("\u{1B}[\(row + 1);\(column + 1)H".utf8)
        }
    }

    private mutating func write(_ cell: Cell, into output: inout [UInt8]) {
        let shown = colors ? cell.style : Style(.default, bold: cell.style.bold, reverse: cell.style.reverse)
        if style != shown {
            output += Array(shown.sgr(colors: colors).utf8)
            style = shown
        }
        var utf8 = cell.scalar.utf8.makeIterator()
        while let byte = utf8.next() { output.append(byte) }
    }
}
