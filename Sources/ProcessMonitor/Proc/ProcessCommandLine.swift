/// Reads `/proc/PID/cmdline`.
package enum ProcessCommandLine {
    /// The arguments, NUL-separated in the file, joined by spaces; `nil` when empty (a
    /// kernel thread, or a zombie).
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> String? {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0 { end -= 1 }
        guard end > 0 else { return nil }
        var text = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[0..<end]))
        for index in text.indices where text[index] == 0 { text[index] = 32 }
        return String(decoding: text, as: UTF8.self)
    }
}
