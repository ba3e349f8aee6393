import Foundation

/// Emits each chunk read as it is, as `Data`.
struct DataFramer: ChunkFramer {
    mutating func frame(_ bytes: UnsafeRawBufferPointer, into output: inout [Data]) {
        output.append(Data(bytes))
    }

    mutating func finish(into output: inout [Data]) {}
}
