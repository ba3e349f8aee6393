/// A bar made of parts of a whole, as htop draws them: `cpu [|||||||      23.6%]`.
package struct Meter {
    /// One part of the bar.
    package struct Segment {
        /// Its share of the whole, from 0 to 1.
        package var fraction: Double
        /// Its colour.
        package var color: Color
        /// The character that draws it without colour: each part has its own, so that a
        /// monochrome bar still tells used from cache.
        package var glyph: Unicode.Scalar

        /// Creates a segment.
        package init(_ fraction: Double, _ color: Color, _ glyph: Unicode.Scalar) {
            self.fraction = fraction
            self.color = color
            self.glyph = glyph
        }
    }

    /// The label before the bar.
    package var label: String
    /// The parts, drawn left to right.
    package var segments: [Segment]
    /// The figure written at the bar's right end, over it.
    package var text: String

    /// Creates a meter.
    package init(label: String, segments: [Segment], text: String) {
        self.label = label
        self.segments = segments
        self.text = text
    }

    /// Draws the meter in `width` columns from `column` of `row`: the label in
    /// `labelWidth` columns, then the bracketed bar. With `colors`, every part is drawn
    /// with `|` in its colour; without, with its glyph.
    package func draw(into frame: inout Frame, row: Int, column: Int, width: Int, labelWidth: Int, colors: Bool) {
        guard width > 0, row >= 0, row < frame.size.height else { return }
        frame.draw(label, row: row, column: column, width: min(width, labelWidth), style: Style(.cyan, bold: true))
        let inner = width - labelWidth - 2
        guard inner > 0 else { return }
        let open = column + labelWidth
        frame.draw("[", row: row, column: open, style: Style(bold: true))
        frame.draw("]", row: row, column: open + 1 + inner, style: Style(bold: true))
        var cells = Array(repeating: Cell.blank, count: inner)
        var filled = 0.0
        var start = 0
        for segment in segments {
            filled += max(0, segment.fraction)
            let end = min(inner, Int((filled * Double(inner)).rounded()))
            if end > start {
                for index in start..<end { cells[index] = Cell(colors ? "|" : segment.glyph, Style(segment.color)) }
                start = end
            }
        }
        let figure = DisplayText.scalars(text)
        let textStart = max(0, inner - figure.count)
        for (offset, scalar) in figure.prefix(inner).enumerated() {
            cells[textStart + offset] = Cell(scalar, Style(.default, bold: true))
        }
        for (offset, cell) in cells.enumerated() where open + 1 + offset < frame.size.width {
            frame[row, open + 1 + offset] = cell
        }
    }
}
