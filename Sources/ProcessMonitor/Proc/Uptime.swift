/// Reads `/proc/uptime`.
package enum Uptime {
    /// The seconds since boot, the first field of `/proc/uptime` ("37307.73 23377.59").
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var scanner = ByteScanner(bytes)
        return scanner.decimal()
    }
}
