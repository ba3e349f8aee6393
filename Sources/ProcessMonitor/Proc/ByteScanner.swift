/// Reads numbers and words from the bytes of a /proc file, left to right.
///
/// /proc's files are ASCII: fields separated by spaces, tabs or newlines.
package struct ByteScanner {
    private let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    package private(set) var position: Int

    /// A scanner of `bytes`, from `position`.
    package init(_ bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Whether everything has been read.
    package var isAtEnd: Bool { position >= bytes.count }

    /// Skips spaces and tabs (not newlines).
    package mutating func skipBlanks() {
        while position < bytes.count, bytes[position] == 32 || bytes[position] == 9 { position += 1 }
    }

    /// Moves past the next newline.
    package mutating func skipLine() {
        while position < bytes.count, bytes[position] != 10 { position += 1 }
        if position < bytes.count { position += 1 }
    }

    /// The next integer after blanks (right here without `skippingBlanks`), or `nil`
    /// (nothing consumed but blanks) when there is none.
    package mutating func integer(skippingBlanks: Bool = true) -> Int? {
        if skippingBlanks { skipBlanks() }
        var value = 0
        var digits = 0
        var negative = false
        if position < bytes.count, bytes[position] == 45 {   // "-"
            negative = true
            position += 1
        }
        while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
            value = value &* 10 &+ Int(bytes[position] - 48)
            position += 1
            digits += 1
        }
        return digits > 0 ? (negative ? -value : value) : nil
    }

    /// The next decimal number (`12.34`) after blanks, or `nil`.
    package mutating func decimal() -> Double? {
        guard let whole = integer() else { return nil }
        guard position < bytes.count, bytes[position] == 46 else { return Double(whole) }   // "."
        position += 1
        var fraction = 0.0
        var scale = 0.1
        while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
            fraction += Double(bytes[position] - 48) * scale
            scale /= 10
            position += 1
        }
        return Double(whole) + (whole < 0 ? -fraction : fraction)
    }

    /// The next word (up to a blank or newline) after blanks.
    package mutating func word() -> String {
        skipBlanks()
        let start = position
        while position < bytes.count, bytes[position] != 32, bytes[position] != 9, bytes[position] != 10 {
            position += 1
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// Whether the bytes at the position start with `prefix` (ASCII); consumes it if so.
    package mutating func consume(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let start = prefix.utf8Start
        for offset in 0..<count where bytes[position + offset] != start[offset] { return false }
        position += count
        return true
    }
}
