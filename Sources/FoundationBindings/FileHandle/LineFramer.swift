/// Splits the bytes read into lines at each `"\n"` (which is not part of the line; a
/// `"\r"` before it is kept), decoded as UTF-8 (an invalid sequence becomes U+FFFD).
/// A last line without a final newline is emitted at the end of the file; an empty
/// file, or one that ends with a newline, adds no empty last line.
struct LineFramer: ChunkFramer {
    /// The start of a line whose newline has not been read yet.
    private var partial: [UInt8] = []

    mutating func frame(_ bytes: UnsafeRawBufferPointer, into output: inout [String]) {
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<newline])
            if partial.isEmpty {
                output.append(String(decoding: piece, as: UTF8.self))
            } else {
                partial.append(contentsOf: piece)
                output.append(String(decoding: partial, as: UTF8.self))
                partial.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
    }

    mutating func finish(into output: inout [String]) {
        guard !partial.isEmpty else { return }
        output.append(String(decoding: partial, as: UTF8.self))
        partial.removeAll()
    }
}
