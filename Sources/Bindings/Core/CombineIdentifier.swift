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
        counter.withLock { value in
            value &+= 1
            // The high bit keeps numbers apart from object addresses.
            return value | (1 << 63)
        }
    }

    private static let counter = CounterBox()
}

/// A locked counter; `@unchecked Sendable` because `value` is only touched inside `lock`.
private final class CounterBox: @unchecked Sendable {
    private let lock = Lock()
    private var value: UInt64 = 0
    func withLock<T>(_ body: (inout UInt64) -> T) -> T {
        lock.withLock { body(&value) }
    }
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
