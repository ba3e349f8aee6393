extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the
    /// subscription, as in Combine.
    ///
    /// Demand is either a finite count (``max(_:)``, ``none``) or ``unlimited``.
    /// Arithmetic saturates: anything added to `.unlimited` stays `.unlimited`, and
    /// subtraction never goes below `.none`.
    ///
    /// ```swift
    /// var demand = Subscribers.Demand.max(2)
    /// demand += 1          // .max(3)
    /// demand -= .max(5)    // .none
    /// ```
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Sendable, CustomStringConvertible {
        /// `UInt.max` stands for unlimited.
        @usableFromInline
        let rawValue: UInt

        @inlinable
        init(rawValue: UInt) { self.rawValue = rawValue }

        /// A request for as many values as the publisher can produce.
        public static let unlimited = Demand(rawValue: .max)

        /// A request for no elements. Not a valid argument to `request(_:)`.
        public static let none = Demand(rawValue: 0)

        /// A request for at most `value` elements; `value` must not be negative.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            precondition(
                value >= 0,
                "Bindings: Subscribers.Demand.max(\(value)) is negative; a demand counts elements, so pass 0 or more (or use .unlimited)")
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` when unlimited.
        @inlinable
        public var max: Int? {
            rawValue == .max ? nil : Int(rawValue)
        }

        public var description: String {
            rawValue == .max ? "unlimited" : "max(\(rawValue))"
        }

        // MARK: Arithmetic (saturating, as in Combine)

        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited || rhs == .unlimited { return .unlimited }
            let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
            return overflow || sum == .max ? .unlimited : Demand(rawValue: sum)
        }

        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs < 0 { return lhs - Demand.max(-rhs) }
            return lhs + Demand.max(rhs)
        }

        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs == .unlimited { return .none }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }

        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs < 0 { return lhs + Demand.max(-rhs) }
            return lhs - Demand.max(rhs)
        }

        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            precondition(rhs >= 0, "Bindings: a demand cannot be multiplied by a negative number (\(rhs))")
            if lhs == .unlimited { return .unlimited }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow || product == .max ? .unlimited : Demand(rawValue: product)
        }

        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

        // MARK: Comparison

        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool {
            lhs != .unlimited && rhs >= 0 && lhs.rawValue == UInt(rhs)
        }

        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }

        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }

        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }

        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool {
            lhs != .unlimited && (rhs > 0 && lhs.rawValue < UInt(rhs))
        }

        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool {
            lhs == .unlimited || rhs < 0 || lhs.rawValue > UInt(rhs)
        }

        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool { !(lhs > rhs) }

        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool { !(lhs < rhs) }

        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }

        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }

        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }

        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }

        /// Stops the program when a subscriber requests no elements, which Combine treats
        /// as an API violation.
        @inlinable
        func assertNonZero(file: StaticString = #fileID, line: UInt = #line) {
            precondition(
                rawValue != 0,
                "Bindings: request(_:) was called with a demand of zero (.none or .max(0)); request .max(1) or more, or .unlimited, or simply do not call request(_:) when you want nothing more",
                file: file, line: line)
        }
    }
}
