#if canImport(Glibc)
import Glibc
#endif

/// Writes bytes to a file descriptor, all of them: `write(2)` may write part of a buffer,
/// or be interrupted by a signal (SIGWINCH arrives while the monitor draws).
package enum FileOutput {
    /// Writes `bytes` to `descriptor`; returns `false` when it cannot (a closed pipe:
    /// `bindings-demo | head -2` once `head` is done).
    @discardableResult
    package static func write(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> Bool {
        var bytes = Array(bytes)
        return bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Writes `text` to `descriptor`.
    @discardableResult
    package static func write(_ text: String, to descriptor: Int32) -> Bool {
        write(Array(text.utf8), to: descriptor)
    }
}
