/// Turns the bytes a ``FileHandleReader`` reads into the values its publisher emits.
///
/// A framer lives on the reader's thread: it is called for one chunk at a time, in
/// order, then once at the end of the file.
protocol ChunkFramer {
    associatedtype Output

    /// Appends the values that `bytes` completes to `output`.
    mutating func frame(_ bytes: UnsafeRawBufferPointer, into output: inout [Output])

    /// Appends whatever is left at the end of the file to `output`.
    mutating func finish(into output: inout [Output])
}
