/// The load averages of `/proc/loadavg`: runnable and waiting tasks, averaged over one,
/// five and fifteen minutes.
package struct LoadAverage: Hashable, Sendable {
    /// Over the last minute.
    package var one: Double
    /// Over the last five minutes.
    package var five: Double
    /// Over the last fifteen minutes.
    package var fifteen: Double

    /// Creates load averages.
    package init(one: Double = 0, five: Double = 0, fifteen: Double = 0) {
        self.one = one
        self.five = five
        self.fifteen = fifteen
    }

    /// Parses `/proc/loadavg` ("0.33 1.15 1.52 1/82 5328"); `nil` if it is not that.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> LoadAverage? {
        var scanner = ByteScanner(bytes)
        guard let one = scanner.decimal(), let five = scanner.decimal(), let fifteen = scanner.decimal() else {
            return nil
        }
        return LoadAverage(one: one, five: five, fifteen: fifteen)
    }
}
