import Bindings
import Foundation

extension OperationQueue {
    /// The scheduler time type used by the operation queue, as in Combine: a wrapper
    /// around a `Date`.
    ///
    /// ```swift
    /// let queue = OperationQueue()
    /// let later = queue.now.advanced(by: .milliseconds(250))
    /// queue.schedule(after: later) { print("a quarter second later") }
    /// ```
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date represented by this type.
        public var date: Date

        /// Creates an operation queue scheduler time with the given date.
        public init(_ date: Date) {
            self.date = date
        }

        /// Returns the distance to another operation queue scheduler time, in seconds,
        /// negative when `other` is earlier.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
        }

        /// Returns an operation queue scheduler time calculated by advancing this
        /// instance's time by the given interval.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.magnitude))
        }
    }
}
