/// Reads `/proc/PID/status`.
package enum ProcessStatus {
    /// The real user id, the first number of the `Uid:` line; `nil` without one.
    package static func userID(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var scanner = ByteScanner(bytes)
        while !scanner.isAtEnd {
            if scanner.consume("Uid:") { return scanner.integer() }
            scanner.skipLine()
        }
        return nil
    }
}
