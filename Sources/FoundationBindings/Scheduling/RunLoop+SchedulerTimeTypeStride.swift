import Bindings
import Foundation

extension RunLoop.SchedulerTimeType {
    /// A distance between two run loop scheduler times, counted in seconds as a
    /// `TimeInterval`, as in Combine.
    ///
    /// Integer and floating-point literals are seconds (`0.5` is half a second).
    ///
    /// ```swift
    /// let interval: RunLoop.SchedulerTimeType.Stride = .milliseconds(250)
    /// interval.timeInterval   // 0.25
    /// ```
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
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
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

        /// The sum of two intervals.
        public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }

        /// The difference of two intervals.
        public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }

        /// The product of two intervals.
        public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }

        /// Adds `rhs` to `lhs`.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

        /// Subtracts `rhs` from `lhs`.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

        /// Multiplies `lhs` by `rhs`.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

        /// An interval of `s` seconds.
        public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }

        /// An interval of `s` seconds.
        public static func seconds(_ s: Double) -> Stride { Stride(s) }

        /// An interval of `ms` milliseconds.
        public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }

        /// An interval of `us` microseconds.
        public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }

        /// An interval of `ns` nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }
    }
}
