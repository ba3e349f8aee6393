/// A key the monitor reacts to, decoded from the terminal's bytes.
package enum Key: Hashable, Sendable {
    /// A printable character.
    case character(Character)
    /// Enter (Return).
    case enter
    /// Esc, alone.
    case escape
    /// Backspace (DEL or Ctrl-H).
    case backspace
    /// Ctrl-C: quit, whatever the mode (raw mode delivers it as a byte, not SIGINT).
    case interrupt
    /// Ctrl-L: draw the whole screen again.
    case redraw
    /// The arrow keys up and down.
    case up, down
    /// Page Up, Page Down.
    case pageUp, pageDown
    /// Home, End.
    case home, end
}

/// Decodes the bytes read from a terminal in raw mode into keys.
///
/// Escape sequences (`ESC [ A`, `ESC [ 5 ~`, `ESC O H`...) arrive whole in one read, as
/// terminals write them at once; an `ESC` that ends a read is the Esc key. A UTF-8
/// character split across two reads is kept until it is whole.
package struct KeyDecoder {
    private var pending: [UInt8] = []

    /// A decoder with nothing pending.
    package init() {}

    /// The keys in `bytes`, read after the previous ones. Unknown sequences and control
    /// characters are skipped.
    package mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        let input = pending + bytes
        pending = []
        var keys: [Key] = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch byte {
            case 0x1B:
                let (key, length) = Self.escapeSequence(input, at: index)
                if let key { keys.append(key) }
                index += length
                continue
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x03: keys.append(.interrupt)
            case 0x0C: keys.append(.redraw)
            case 0x20..<0x7F: keys.append(.character(Character(Unicode.Scalar(byte))))
            case 0xC0...0xF7:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                guard index + length <= input.count else {
                    pending = Array(input[index...])   // the rest comes with the next read
                    return keys
                }
                let text = String(decoding: input[index..<(index + length)], as: UTF8.self)
                if let character = text.first, text.count == 1, character != "\u{FFFD}" {
                    keys.append(.character(character))
                }
                index += length
                continue
            default: break
            }
            index += 1
        }
        return keys
    }

    /// The key of the escape sequence at `start`, and its length.
    private static func escapeSequence(_ input: [UInt8], at start: Int) -> (Key?, Int) {
        guard start + 1 < input.count else { return (.escape, 1) }
        let introducer = input[start + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            return (.escape, 1)   // Esc then another key typed quickly (or Alt+key)
        }
        // Parameters (digits and ';'), then a final byte from '@' to '~'.
        var end = start + 2
        while end < input.count, (0x30...0x3F).contains(input[end]) { end += 1 }
        guard end < input.count else { return (nil, input.count - start) }
        let parameters = String(decoding: input[(start + 2)..<end], as: UTF8.self)
        let key: Key? = switch (input[end], parameters) {
        case (UInt8(ascii: "A"), _): .up
        case (UInt8(ascii: "B"), _): .down
        case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): .home
        case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): .end
        case (UInt8(ascii: "~"), "5"): .pageUp
        case (UInt8(ascii: "~"), "6"): .pageDown
        default: nil
        }
        return (key, end + 1 - start)
    }
}
