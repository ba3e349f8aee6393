extension ImmediateScheduler {
    /// The time type used by the immediate scheduler: every instant is the same.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        init() {}

        /// The distance to another immediate scheduler time: always zero.
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }

        /// Advancing an immediate scheduler time gives the same time.
        public func advanced(by n: Stride) -> SchedulerTimeType { self }

        /// The increment by which the immediate scheduler counts time. The
        /// ``SchedulerTimeIntervalConvertible`` conversions all give zero, because this
        /// scheduler does not wait.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Hashable,
            Codable, Sendable, SchedulerTimeIntervalConvertible
        {
            /// The type used when evaluating floating-point literals.
            public typealias FloatLiteralType = Double
            /// The type used when evaluating integer literals.
            public typealias IntegerLiteralType = Int
            /// The type used for expressing the stride's magnitude.
            public typealias Magnitude = Int

            /// The value of this time interval, in the scheduler's (meaningless) unit.
            public var magnitude: Int

            /// Creates an immediate scheduler time interval from the given value.
            public init(_ value: Int) { magnitude = value }

            /// Creates an immediate scheduler time interval from an integer literal.
            public init(integerLiteral value: Int) { self.init(value) }

            /// Creates an immediate scheduler time interval from a floating-point
            /// literal, truncated towards zero.
            public init(floatLiteral value: Double) { self.init(Int(value)) }

            /// Creates an immediate scheduler time interval from a binary integer, or
            /// `nil` when it does not fit in an `Int`.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                self.init(value)
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

            /// Zero: the immediate scheduler does not wait.
            public static func seconds(_ s: Int) -> Stride { 0 }

            /// Zero: the immediate scheduler does not wait.
            public static func seconds(_ s: Double) -> Stride { 0 }

            /// Zero: the immediate scheduler does not wait.
            public static func milliseconds(_ ms: Int) -> Stride { 0 }

            /// Zero: the immediate scheduler does not wait.
            public static func microseconds(_ us: Int) -> Stride { 0 }

            /// Zero: the immediate scheduler does not wait.
            public static func nanoseconds(_ ns: Int) -> Stride { 0 }
        }
    }
}
