import Dispatch

extension DispatchQueue.SchedulerTimeType {
    /// A distance between two dispatch queue times, counted in nanoseconds, as in
    /// Combine.
    ///
    /// Integer and floating-point literals are seconds (`0.5` is half a second); the
    /// conversions saturate instead of overflowing, so that `.seconds(Int.max)` means
    /// "never" rather than a crash.
    ///
    /// ```swift
    /// let interval: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(300)
    /// interval.magnitude   // 300_000_000
    /// ```
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
        ExpressibleByFloatLiteral, Hashable, Codable, Sendable
    {
        /// Floating-point literals are seconds.
        public typealias FloatLiteralType = Double
        /// Integer literals are seconds.
        public typealias IntegerLiteralType = Int
        /// The magnitude is the (signed) number of nanoseconds, as in Combine.
        public typealias Magnitude = Int

        /// The value of this time interval in nanoseconds.
        public var magnitude: Int

        /// This interval as a `DispatchTimeInterval` of nanoseconds.
        public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

        private init(nanoseconds: Int) { magnitude = nanoseconds }

        /// Creates a dispatch queue time interval from a dispatch time interval;
        /// `.never` becomes the largest interval.
        public init(_ timeInterval: DispatchTimeInterval) {
            switch timeInterval {
            case .seconds(let s): self = .seconds(s)
            case .milliseconds(let ms): self = .milliseconds(ms)
            case .microseconds(let us): self = .microseconds(us)
            case .nanoseconds(let ns): self = .nanoseconds(ns)
            case .never: self = .nanoseconds(.max)
            @unknown default: self = .nanoseconds(.max)
            }
        }

        /// Creates an interval of `value` seconds.
        public init(floatLiteral value: Double) { self = .seconds(value) }

        /// Creates an interval of `value` seconds.
        public init(integerLiteral value: Int) { self = .seconds(value) }

        /// Creates an interval of `source` seconds, as the integer literal does and as
        /// Combine's does, or `nil` when it does not fit in an `Int` of nanoseconds.
        ///
        /// ```swift
        /// DispatchQueue.SchedulerTimeType.Stride(exactly: 2) == .seconds(2)   // true
        /// ```
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let seconds = Int(exactly: source) else { return nil }
            let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            if overflow { return nil }
            self.init(nanoseconds: nanoseconds)
        }

        /// Whether `lhs` is shorter than `rhs`.
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

        // Arithmetic is in nanoseconds. (Early Combine releases scaled the sum by a
        // billion, FB7189676; that bug is not reproduced.)
        /// The sum of two intervals.
        public static func + (lhs: Stride, rhs: Stride) -> Stride {
            Stride(nanoseconds: saturating(lhs.magnitude.addingReportingOverflow(rhs.magnitude), lhs.magnitude))
        }

        /// The difference of two intervals.
        public static func - (lhs: Stride, rhs: Stride) -> Stride {
            Stride(nanoseconds: saturating(lhs.magnitude.subtractingReportingOverflow(rhs.magnitude), lhs.magnitude))
        }

        /// The product of two intervals.
        public static func * (lhs: Stride, rhs: Stride) -> Stride {
            Stride(nanoseconds: scaled(lhs.magnitude, by: rhs.magnitude))
        }

        /// Adds `rhs` to `lhs`.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

        /// Subtracts `rhs` from `lhs`.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

        /// Multiplies `lhs` by `rhs`.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

        /// An interval of `s` seconds.
        public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: scaled(s, by: 1_000_000_000)) }

        /// An interval of `s` seconds, rounded towards zero to a whole nanosecond.
        public static func seconds(_ s: Double) -> Stride {
            // `fatalError`, not `precondition`: the message must survive -O builds.
            if s.isNaN { fatalError("Bindings: a scheduler interval of NaN seconds; pass a number of seconds") }
            let nanoseconds = s * 1_000_000_000
            if nanoseconds >= Double(Int.max) { return Stride(nanoseconds: .max) }
            if nanoseconds <= Double(Int.min) { return Stride(nanoseconds: .min) }
            return Stride(nanoseconds: Int(nanoseconds))
        }

        /// An interval of `ms` milliseconds.
        public static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: scaled(ms, by: 1_000_000)) }

        /// An interval of `us` microseconds.
        public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: scaled(us, by: 1_000)) }

        /// An interval of `ns` nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

        /// `value * factor`, clamped to `Int`'s range.
        private static func scaled(_ value: Int, by factor: Int) -> Int {
            let (product, overflow) = value.multipliedReportingOverflow(by: factor)
            guard overflow else { return product }
            return (value < 0) != (factor < 0) ? .min : .max
        }

        /// The result of an addition or subtraction, clamped to `Int`'s range; on
        /// overflow the result has the sign of `lhs` (the only way either can overflow).
        private static func saturating(_ result: (partialValue: Int, overflow: Bool), _ lhs: Int) -> Int {
            guard result.overflow else { return result.partialValue }
            return lhs < 0 ? .min : .max
        }
    }
}
