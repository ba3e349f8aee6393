import Bindings
import Foundation

extension Publishers {
    /// A publisher of the lines read from a file handle, finishing at the end of the
    /// file.
    ///
    /// Create one with ``Reactive/lines``. Lines are split at each `"\n"`,
    /// which is not part of the line (a `"\r"` before it is kept), and decoded as UTF-8
    /// (an invalid sequence becomes U+FFFD). A last line without a final newline is
    /// emitted before the publisher finishes; a final newline adds no empty line.
    /// Reading works as for ``Publishers/FileHandleData``: a thread of the
    /// subscription's own reads the handle's descriptor, and a read error ends the
    /// stream like the end of the file.
    ///
    /// **Thread:** lines arrive on the subscription's reading thread; a line that
    /// waited for demand arrives on the thread that calls `request(_:)`.
    ///
    /// **Demand:** honoured without loss: the lines of a chunk already read wait for
    /// demand, and the handle is not read further until they are delivered and the
    /// subscriber asks for more. Once a pipe's writers have all closed it, what is left
    /// in it is read at once and waits for demand, then the publisher finishes.
    ///
    /// **Cancel:** wakes the reading thread, which ends and releases the subscription
    /// and the handle.
    public struct FileHandleLines: Publisher {
        /// The lines read, without their newline.
        public typealias Output = String
        /// The publisher cannot fail.
        public typealias Failure = Never

        /// The file handle this publisher reads.
        public let fileHandle: FileHandle

        /// Creates a publisher of the lines read from `fileHandle`.
        public init(fileHandle: FileHandle) {
            self.fileHandle = fileHandle
        }

        /// Starts a reading thread for the subscriber, which ends at the end of the file or when the subscriber cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            FileHandleReader.subscribe(subscriber, to: fileHandle, framer: LineFramer())
        }
    }
}

extension Reactive where Base: FileHandle {
    /// A publisher of the lines read from this handle (split at `"\n"`, a last line
    /// without newline included), finishing at the end of the file.
    ///
    /// Lines arrive on a reading thread of the subscription's own; the handle is not
    /// read while the subscriber has no demand (see ``Publishers/FileHandleLines``).
    ///
    /// ```swift
    /// let c = process.standardOutputPipe.fileHandleForReading.reactive.lines
    ///     .sink { line in log.append(line) }
    /// ```
    public var lines: Publishers.FileHandleLines {
        Publishers.FileHandleLines(fileHandle: base)
    }
}
