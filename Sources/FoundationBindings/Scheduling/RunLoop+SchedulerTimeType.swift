import Bindings
import Foundation

extension RunLoop {
    /// The scheduler time type used by the run loop, as in Combine: a wrapper around a
    /// `Date`.
    ///
    /// ```swift
    /// let runLoop = RunLoop.main
    /// let later = runLoop.now.advanced(by: .milliseconds(250))
    /// runLoop.schedule(after: later) { print("a quarter second later") }
    /// ```
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date represented by this type.
        public var date: Date

        /// Creates a run loop scheduler time with the given date.
        public init(_ date: Date) {
            self.date = date
        }

        /// Returns the distance to another run loop scheduler time, in seconds, negative
        /// when `other` is earlier.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
        }

        /// Returns a run loop scheduler time calculated by advancing this instance's time
        /// by the given interval.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.magnitude))
        }
    }
}
