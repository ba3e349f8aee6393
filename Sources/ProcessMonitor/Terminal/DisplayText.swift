// Text from processes (command lines, user names) can hold anything: control characters
// would move the cursor, and wide or combining characters would make the screen's columns
// disagree with the frame's. The grid holds only characters one column wide.

/// Turns text into characters one column wide each, as a frame's cells need.
package enum DisplayText {
    /// The characters of `text` to draw: control characters and characters wider than a
    /// column become `?`, zero-width ones (combining marks, joiners) are dropped.
    package static func scalars(_ text: some StringProtocol) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x20 && scalar.value < 0x7F {
                result.append(scalar)   // ASCII, the common case
            } else if let shown = displayed(scalar) {
                result.append(shown)
            }
        }
        return result
    }

    /// What a non-ASCII (or control) character is drawn as, or `nil` to drop it.
    private static func displayed(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return "?" }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return nil
        case .control, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: return "?"
        default: break
        }
        return isWide(value) ? "?" : scalar
    }

    /// East Asian wide and fullwidth characters, and emoji: two columns on a terminal.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }
}
