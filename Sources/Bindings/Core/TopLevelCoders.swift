/// A type that defines methods for encoding, as in Combine: the coder that
/// `encode(encoder:)` takes.
///
/// `FoundationBindings` makes Foundation's `JSONEncoder` and `PropertyListEncoder` one.
///
/// ```swift
/// struct LineEncoder: TopLevelEncoder {
///     func encode<T: Encodable>(_ value: T) throws -> String { "\(value)" }
/// }
/// ```
public protocol TopLevelEncoder {
    /// The type this encoder produces (`Data` for Foundation's encoders).
    associatedtype Output

    /// Encodes an instance of the indicated type.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A type that defines methods for decoding, as in Combine: the coder that
/// `decode(type:decoder:)` takes.
///
/// `FoundationBindings` makes Foundation's `JSONDecoder` and `PropertyListDecoder` one.
public protocol TopLevelDecoder {
    /// The type this decoder accepts (`Data` for Foundation's decoders).
    associatedtype Input

    /// Decodes an instance of the indicated type.
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}
