import Bindings
import Foundation

extension FileHandle: ReactiveExtensionProvider {}

extension Publishers {
    /// A publisher of the data read from a file handle, chunk by chunk as it becomes
    /// available, finishing at the end of the file.
    ///
    /// Create one with ``Reactive/data``. Each subscriber reads the handle's
    /// file descriptor on a thread of its own (which waits with `poll(2)`), from where
    /// the handle's offset is; so do not read the handle elsewhere (or set its
    /// `readabilityHandler`), give a pipe or a file one subscriber, and keep the handle
    /// open while subscribed. The publisher keeps the handle alive and does not close
    /// it. A read error ends the stream like the end of the file (the failure type is
    /// `Never`, so that the publisher can be bound with `<~`); a handle already closed
    /// finishes at once. Chunks are at most 64 KiB.
    ///
    /// **Thread:** chunks arrive on the subscription's reading thread; a chunk that
    /// waited for demand arrives on the thread that calls `request(_:)`.
    ///
    /// **Demand:** honoured without loss: while the subscriber has no unmet demand
    /// nothing is read (a pipe's writer then blocks once the pipe is full), and
    /// reading resumes when the subscriber asks. Once a pipe's writers have all closed
    /// it, what is left in it is read at once and waits for demand, so that the
    /// publisher finishes (completion needs no demand) after the last chunk.
    ///
    /// **Cancel:** wakes the reading thread, which ends and releases the subscription
    /// and the handle. Bytes not yet read stay in the file or pipe.
    public struct FileHandleData: Publisher {
        /// The chunks of data read.
        public typealias Output = Data
        /// The publisher cannot fail.
        public typealias Failure = Never

        /// The file handle this publisher reads.
        public let fileHandle: FileHandle

        /// Creates a publisher of the data read from `fileHandle`.
        public init(fileHandle: FileHandle) {
            self.fileHandle = fileHandle
        }

        /// Starts a reading thread for the subscriber, which ends at the end of the file or when the subscriber cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            FileHandleReader.subscribe(subscriber, to: fileHandle, framer: DataFramer())
        }
    }
}

extension Reactive where Base: FileHandle {
    /// A publisher of the data read from this handle, chunk by chunk, finishing at the
    /// end of the file.
    ///
    /// Chunks arrive on a reading thread of the subscription's own; the handle is not
    /// read while the subscriber has no demand (see ``Publishers/FileHandleData``).
    ///
    /// ```swift
    /// let pipe = Pipe()
    /// let c = pipe.fileHandleForReading.reactive.data
    ///     .sink(receiveCompletion: { _ in print("EOF") }, receiveValue: { output.append($0) })
    /// ```
    public var data: Publishers.FileHandleData {
        Publishers.FileHandleData(fileHandle: base)
    }
}
