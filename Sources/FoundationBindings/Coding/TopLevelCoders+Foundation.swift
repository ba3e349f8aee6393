import Foundation

// Foundation's encoders and decoders are Bindings' top-level coders, as they are
// Combine's on Apple platforms, so that `encode(encoder:)` and `decode(type:decoder:)`
// take them as they are. Their methods already match the requirements.

extension JSONEncoder: TopLevelEncoder {}
extension JSONDecoder: TopLevelDecoder {}
extension PropertyListEncoder: TopLevelEncoder {}
extension PropertyListDecoder: TopLevelDecoder {}
