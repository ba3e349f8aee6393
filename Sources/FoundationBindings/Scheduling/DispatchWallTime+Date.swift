import Dispatch
import Foundation

extension DispatchWallTime {
    /// The wall-clock deadline of `date`, rounded up to the nanosecond, so that work
    /// scheduled for it never starts before `Date()` reaches it.
    ///
    /// A wall-clock deadline, not `DispatchTime.now() + date.timeIntervalSinceNow`: a
    /// `Date` is wall-clock time, and the two clocks drift apart (NTP slews the wall
    /// clock), so an uptime deadline could come a little before the date.
    init(_ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        var nanoseconds = ((date.timeIntervalSince1970 - seconds) * 1_000_000_000).rounded(.up)
        var wholeSeconds = seconds
        if nanoseconds >= 1_000_000_000 {
            wholeSeconds += 1
            nanoseconds -= 1_000_000_000
        }
        // Dates before 1970 (`Date.distantPast`), or in its first second, are simply due:
        // the epoch is long past. Due now, not at the epoch: Dispatch reads a wall-clock
        // deadline of 1 ns or less since the epoch as "forever", and never ran the work.
        guard wholeSeconds >= 1 else {
            self = .now()
            return
        }
        let clamped = min(wholeSeconds, TimeInterval(Int32.max) * 4)   // far beyond any real deadline
        self.init(timespec: timespec(tv_sec: Int(clamped), tv_nsec: Int(nanoseconds)))
    }
}
