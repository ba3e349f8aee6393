import Dispatch

extension DispatchQueue {
    /// The scheduler time type used by the dispatch queue, as in Combine: a wrapper
    /// around `DispatchTime`.
    ///
    /// ```swift
    /// let later = queue.now.advanced(by: .milliseconds(250))
    /// queue.schedule(after: later) { print("a quarter second later") }
    /// ```
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time represented by this type.
        public var dispatchTime: DispatchTime

        /// Creates a dispatch queue time type instance.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// Returns the distance to another dispatch queue time, negative when `other`
        /// is earlier.
        public func distance(to other: SchedulerTimeType) -> Stride {
            // Saturating: two times further apart than an `Int` of nanoseconds holds
            // (`DispatchTime.distantFuture` and now) give the largest interval of that
            // sign, where a wrapping subtraction gave one of the wrong sign.
            let from = dispatchTime.uptimeNanoseconds
            let to = other.dispatchTime.uptimeNanoseconds
            if to >= from {
                let distance = to - from
                return .nanoseconds(distance > UInt64(Int.max) ? .max : Int(distance))
            }
            let distance = from - to
            return .nanoseconds(distance > UInt64(Int.max) ? .min : -Int(distance))
        }

        /// Returns a dispatch queue scheduler time calculated by advancing this
        /// instance's time by the given interval (Dispatch's own arithmetic, which
        /// saturates).
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(dispatchTime + n.timeInterval)
        }

        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime < rhs.dispatchTime
        }

        /// Whether two times are the same dispatch time.
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.rawValue == rhs.dispatchTime.rawValue
        }

        /// Hashes the dispatch time.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.rawValue)
        }

        /// Encodes the time as its uptime in nanoseconds.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// Decodes a time encoded as its uptime in nanoseconds.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
        }
    }
}
