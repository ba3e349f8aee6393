import Synchronization

/// A unique identifier for identifying publisher streams, as in Combine.
///
/// Subscribers that are classes are identified by their object identity; every other
/// value gets a fresh number.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    private let rawValue: UInt64

    /// Creates a unique identifier.
    public init() {
        rawValue = CombineIdentifier.next()
    }

    /// Creates an identifier from an object's identity.
    public init(_ obj: AnyObject) {
        // The address itself: a hash of it could collide between two live objects.
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    /// The identifier in hexadecimal.
    public var description: String { "0x\(String(rawValue, radix: 16))" }

    private static func next() -> UInt64 {
        // The high bit keeps numbers apart from object addresses.
        counter.wrappingAdd(1, ordering: .relaxed).newValue | (1 << 63)
    }

    /// The last number handed out; only uniqueness matters, so `relaxed` suffices.
    private static let counter = Atomic<UInt64>(0)
}

/// A type that provides a ``CombineIdentifier`` for use in debugging publisher streams.
public protocol CustomCombineIdentifierConvertible {
    /// The identifier of this stream element.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// A class is identified by its object identity.
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
