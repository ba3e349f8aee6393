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
        /// The count, from 0 to `Int.max`; `UInt.max` stands for unlimited. As in Combine,
        /// finite arithmetic that would pass `Int.max` gives `.unlimited`.
        @usableFromInline
        let rawValue: UInt

        @inlinable
        init(rawValue: UInt) { self.rawValue = rawValue }

        /// The demand for `count` elements, or unlimited when `count` exceeds `Int.max`.
        @inlinable
        static func saturating(_ count: UInt) -> Demand {
            count > UInt(Int.max) ? .unlimited : Demand(rawValue: count)
        }

        // `unlimited` and `none` are inlinable computed properties, not `static let`s
        // (Combine's spelling): a stored global of another module is reached through a
        // call to its accessor at each use, and demand is compared on every delivery.

        /// A request for as many values as the publisher can produce.
        @inlinable
        public static var unlimited: Demand { Demand(rawValue: .max) }

        /// A request for no elements. Not a valid argument to `request(_:)`.
        @inlinable
        public static var none: Demand { Demand(rawValue: 0) }

        /// A request for at most `value` elements; `value` must not be negative.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            // `fatalError`, not `precondition`: the message must survive -O builds.
            if value < 0 {
                fatalError(
                    "Bindings: Subscribers.Demand.max(\(value)) is negative; a demand counts elements, so pass 0 or more (or use .unlimited)")
            }
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` when unlimited.
        @inlinable
        public var max: Int? {
            rawValue == .max ? nil : Int(rawValue)
        }

        /// `"unlimited"` or `"max(n)"`, as in Combine.
        public var description: String {
            rawValue == .max ? "unlimited" : "max(\(rawValue))"
        }

        // MARK: Arithmetic (saturating, as in Combine)

        /// Adds two demands; `.unlimited` absorbs, and a sum past `Int.max` is `.unlimited`.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited || rhs == .unlimited { return .unlimited }
            // Both are at most Int.max, so the sum fits in a UInt.
            return saturating(lhs.rawValue + rhs.rawValue)
        }

        /// Adds a number of elements; a negative number subtracts (never below `.none`).
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs < 0 { return lhs - Demand.saturating(rhs.magnitude) }
            return lhs + Demand(rawValue: UInt(rhs))
        }

        /// Adds `rhs` to `lhs`.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

        /// Adds a number of elements to `lhs`.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

        /// Subtracts; `.unlimited` minus anything stays `.unlimited`, anything else minus
        /// `.unlimited` is `.none`, and results never go below `.none`.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs == .unlimited { return .none }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }

        /// Subtracts a number of elements; a negative number adds.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs < 0 { return lhs + Demand.saturating(rhs.magnitude) }
            return lhs - Demand(rawValue: UInt(rhs))
        }

        /// Subtracts `rhs` from `lhs`.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

        /// Subtracts a number of elements from `lhs`.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

        /// Multiplies a finite demand; `.unlimited` stays `.unlimited`, a product past
        /// `Int.max` is `.unlimited`. `rhs` must not be negative.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            if rhs < 0 {
                fatalError("Bindings: a demand cannot be multiplied by a negative number (\(rhs))")
            }
            if lhs == .unlimited { return .unlimited }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow ? .unlimited : saturating(product)
        }

        /// Multiplies `lhs` by `rhs`.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

        // MARK: Comparison
        // `.unlimited` is greater than every number; a finite demand compares by count.

        /// Orders demands by count, `.unlimited` last.
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Whether a finite demand asks for exactly `rhs` elements (never true for `.unlimited`).
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool {
            lhs != .unlimited && rhs >= 0 && lhs.rawValue == UInt(rhs)
        }

        /// Whether the demand is not exactly `rhs` elements.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }

        /// Whether a finite demand asks for exactly `lhs` elements.
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }

        /// Whether the demand is not exactly `lhs` elements.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }

        /// Whether the demand is finite and below `rhs`.
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool {
            lhs != .unlimited && (rhs > 0 && lhs.rawValue < UInt(rhs))
        }

        /// Whether the demand is unlimited or above `rhs`.
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool {
            lhs == .unlimited || rhs < 0 || lhs.rawValue > UInt(rhs)
        }

        /// Whether the demand is finite and at most `rhs`.
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool { !(lhs > rhs) }

        /// Whether the demand is unlimited or at least `rhs`.
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool { !(lhs < rhs) }

        /// Whether `lhs` is below the demand (always true for `.unlimited`).
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }

        /// Whether `lhs` is above a finite demand.
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }

        /// Whether `lhs` is at most the demand.
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }

        /// Whether `lhs` is at least a finite demand.
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }

        /// Stops the program when a subscriber requests no elements, which Combine treats
        /// as an API violation.
        /// `fatalError`, not `precondition`: the message must survive -O builds.
        @inlinable
        func assertNonZero(file: StaticString = #fileID, line: UInt = #line) {
            if rawValue == 0 { Self.zeroRequest(file: file, line: line) }
        }

        /// Out of line, so that the check stays one compare in callers.
        @usableFromInline
        static func zeroRequest(file: StaticString, line: UInt) -> Never {
            fatalError(
                "Bindings: request(_:) was called with a demand of zero (.none or .max(0)); request .max(1) or more, or .unlimited, or simply do not call request(_:) when you want nothing more",
                file: file, line: line)
        }
    }
}
