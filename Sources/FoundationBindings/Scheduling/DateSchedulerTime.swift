import Bindings
import Foundation

/// The scheduler time of a Foundation scheduler, as in Combine: a wrapper around a
/// `Date`. `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType` are this
/// type, each for its own scheduler: `Owner` keeps them apart, as Combine's two types
/// are, and is never stored.
///
/// ```swift
/// let runLoop = RunLoop.main
/// let later = runLoop.now.advanced(by: .milliseconds(250))
/// runLoop.schedule(after: later) { print("a quarter second later") }
/// ```
public struct DateSchedulerTime<Owner>: Strideable, Codable, Hashable, Sendable {
    /// A distance between two times of this scheduler, in seconds.
    public typealias Stride = SecondsStride<Owner>

    /// The date represented by this type.
    public var date: Date

    /// Creates a scheduler time with the given date.
    public init(_ date: Date) {
        self.date = date
    }

    /// Returns the distance to another scheduler time, in seconds, negative when `other`
    /// is earlier.
    public func distance(to other: DateSchedulerTime) -> Stride {
        Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
    }

    /// Returns a scheduler time calculated by advancing this instance's time by the given
    /// interval.
    public func advanced(by n: Stride) -> DateSchedulerTime {
        DateSchedulerTime(date.addingTimeInterval(n.magnitude))
    }
}

extension RunLoop {
    /// The scheduler time type used by the run loop, as in Combine: a wrapper around a
    /// `Date`.
    public typealias SchedulerTimeType = DateSchedulerTime<RunLoop>
}

extension OperationQueue {
    /// The scheduler time type used by the operation queue, as in Combine: a wrapper
    /// around a `Date`.
    public typealias SchedulerTimeType = DateSchedulerTime<OperationQueue>
}
