import Bindings
import Foundation

/// A distance between two times of a Foundation scheduler, counted in seconds as a
/// `TimeInterval`, as in Combine: `RunLoop.SchedulerTimeType.Stride` and
/// `OperationQueue.SchedulerTimeType.Stride` (see ``DateSchedulerTime``). `Owner` keeps
/// the two apart and is never stored.
///
/// Integer and floating-point literals are seconds (`0.5` is half a second).
///
/// ```swift
/// let interval: RunLoop.SchedulerTimeType.Stride = .milliseconds(250)
/// interval.timeInterval   // 0.25
/// ```
public struct SecondsStride<Owner>: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
    ExpressibleByFloatLiteral, Codable, Sendable
{
    /// Floating-point literals are seconds.
    public typealias FloatLiteralType = TimeInterval
    /// Integer literals are seconds (read as a `TimeInterval`, as in Combine).
    public typealias IntegerLiteralType = TimeInterval
    /// The magnitude is the (signed) number of seconds, as in Combine.
    public typealias Magnitude = TimeInterval

    /// The value of this time interval in seconds.
    public var magnitude: TimeInterval

    /// The value of this time interval in seconds.
    public var timeInterval: TimeInterval { magnitude }

    /// Creates an interval of `timeInterval` seconds.
    public init(_ timeInterval: TimeInterval) {
        magnitude = timeInterval
    }

    /// Creates an interval from an integer literal, in seconds.
    public init(integerLiteral value: TimeInterval) {
        magnitude = value
    }

    /// Creates an interval from a floating-point literal, in seconds.
    public init(floatLiteral value: TimeInterval) {
        magnitude = value
    }

    /// Creates an interval of `source` seconds, or `nil` when a `TimeInterval` cannot
    /// represent it exactly.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = TimeInterval(exactly: source) else { return nil }
        magnitude = value
    }

    /// Whether `lhs` is shorter than `rhs`.
    public static func < (lhs: SecondsStride, rhs: SecondsStride) -> Bool { lhs.magnitude < rhs.magnitude }

    /// The sum of two intervals.
    public static func + (lhs: SecondsStride, rhs: SecondsStride) -> SecondsStride {
        SecondsStride(lhs.magnitude + rhs.magnitude)
    }

    /// The difference of two intervals.
    public static func - (lhs: SecondsStride, rhs: SecondsStride) -> SecondsStride {
        SecondsStride(lhs.magnitude - rhs.magnitude)
    }

    /// The product of two intervals.
    public static func * (lhs: SecondsStride, rhs: SecondsStride) -> SecondsStride {
        SecondsStride(lhs.magnitude * rhs.magnitude)
    }

    /// Adds `rhs` to `lhs`.
    public static func += (lhs: inout SecondsStride, rhs: SecondsStride) { lhs = lhs + rhs }

    /// Subtracts `rhs` from `lhs`.
    public static func -= (lhs: inout SecondsStride, rhs: SecondsStride) { lhs = lhs - rhs }

    /// Multiplies `lhs` by `rhs`.
    public static func *= (lhs: inout SecondsStride, rhs: SecondsStride) { lhs = lhs * rhs }

    /// An interval of `s` seconds.
    public static func seconds(_ s: Int) -> SecondsStride { SecondsStride(TimeInterval(s)) }

    /// An interval of `s` seconds.
    public static func seconds(_ s: Double) -> SecondsStride { SecondsStride(s) }

    /// An interval of `ms` milliseconds.
    public static func milliseconds(_ ms: Int) -> SecondsStride { SecondsStride(TimeInterval(ms) / 1_000) }

    /// An interval of `us` microseconds.
    public static func microseconds(_ us: Int) -> SecondsStride { SecondsStride(TimeInterval(us) / 1_000_000) }

    /// An interval of `ns` nanoseconds.
    public static func nanoseconds(_ ns: Int) -> SecondsStride { SecondsStride(TimeInterval(ns) / 1_000_000_000) }
}
