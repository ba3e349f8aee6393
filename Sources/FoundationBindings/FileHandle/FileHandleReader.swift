import Bindings
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file handle for one subscription of ``Publishers/FileHandleData`` or
/// ``Publishers/FileHandleLines``, on a thread of its own that waits with `poll(2)`.
///
/// Why not a read `DispatchSource` (or `FileHandle.readabilityHandler`, which is one):
/// on Linux, libdispatch's epoll bookkeeping crashed the test process in one run of
/// three (a use-after-free in `_dispatch_event_loop_drain` when read sources on pipes
/// are created and cancelled around a hang-up; swift-corelibs-libdispatch issue 949 is
/// open for it), and it reports a pipe's hang-up only once, so a source suspended for
/// lack of demand could miss the end of the file. A thread that polls its descriptor
/// has neither problem, and pausing for demand is simple: without unmet demand it polls
/// for a hang-up only, so nothing is read and a pipe's writer blocks when it is full.
///
/// The thread also polls a wake-up pipe, written by ``demandDidIncrease()`` and
/// ``stop()``, so that a new demand or a cancel ends its wait at once.
///
/// `@unchecked Sendable`: `isStopped`, `isClosed`, `wakeRead` and `wakeWrite` are only
/// touched with `lock` held, so ``wake()`` (any thread) never writes to the pipe once the
/// reading thread has closed it (it sets `isClosed` and closes under `lock`); `framer`,
/// `output` and the bytes at `buffer` only by the reading thread (after `init`, which
/// `Thread.start()` orders before it); the rest are `let`s.
final class FileHandleReader<Framer: ChunkFramer>: @unchecked Sendable {
    /// Bytes read per system call at most.
    private static var chunkSize: Int { 64 * 1024 }

    /// Kept alive (and so open) until the reading thread ends.
    private let handle: FileHandle
    private let descriptor: Int32
    private let receiver: any EventReceiver<Framer.Output>
    private let lock = NSLock()
    private var isStopped = false
    /// Whether the reading thread has closed the wake-up pipe.
    private var isClosed = false
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var framer: Framer
    private let buffer: UnsafeMutableRawBufferPointer
    private var output: [Framer.Output] = []

    init(handle: FileHandle, framer: Framer, receiver: any EventReceiver<Framer.Output>) {
        self.handle = handle
        self.descriptor = handle.fileDescriptor
        self.framer = framer
        self.receiver = receiver
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 1)
    }

    deinit {
        buffer.deallocate()
    }

    /// Starts the reading thread. A closed descriptor finishes the stream at once.
    func start() {
        var fds: [Int32] = [-1, -1]
        guard fcntl(descriptor, F_GETFD) != -1, pipe(&fds) == 0 else {
            receiver.finish()
            return
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        lock.withLock {
            wakeRead = fds[0]
            wakeWrite = fds[1]
        }
        // The thread holds the reader until it ends.
        let body: any FileHandleReading = self
        let thread = Thread { body.run() }
        thread.name = "FoundationBindings.FileHandleReader"
        thread.start()
    }

    /// Ends the reading thread. Called once, by the subscription.
    func stop() {
        lock.withLock {
            isStopped = true
            wake()
        }
    }

    /// Wakes the reading thread to poll for data again.
    func demandDidIncrease() {
        lock.withLock { wake() }
    }

    /// Writes a byte to the wake-up pipe, unless it is closed. Lock held. A full pipe
    /// already holds a wake-up, so a failed write loses nothing.
    private func wake() {
        guard !isClosed, wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// The reading thread: waits for data (with unmet demand) or a hang-up (always),
    /// reads, sends, and ends at the end of the file or when stopped.
    func run() {
        let (wakeRead, wakeWrite) = lock.withLock { (self.wakeRead, self.wakeWrite) }
        defer {
            lock.withLock {
                isClosed = true
                close(wakeRead)
                close(wakeWrite)
            }
        }
        while !lock.withLock({ isStopped }) {
            let wantsData = receiver.hasUnmetDemand
            var entries = [
                // Without demand, events 0: poll still reports a hang-up, an error, or
                // an invalid descriptor, but not data.
                pollfd(fd: descriptor, events: wantsData ? Int16(POLLIN) : 0, revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&entries, 2, -1) >= 0 || errno == EINTR else {
                end()
                return
            }
            if entries[1].revents != 0 {
                drainWakeUps(wakeRead)
            }
            if lock.withLock({ isStopped }) { return }
            let events = entries[0].revents
            if events & Int16(POLLIN) != 0 {
                switch readChunk() {
                case .data:
                    sendOutput()
                case .wouldBlock:
                    break
                case .end:
                    end()
                    return
                }
            } else if events & (Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0 {
                // A hang-up polled without demand: what is left (a pipe holds a bounded
                // amount) is read now and waits for demand in the subscription, so that
                // the end needs no demand.
                readToEnd()
                return
            }
        }
    }

    private func drainWakeUps(_ wakeRead: Int32) {
        var bytes = (UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Reads what is left after a hang-up, and finishes.
    private func readToEnd() {
        while case .data = readChunk() {}
        end()
    }

    private enum ReadResult { case data, wouldBlock, end }

    /// Reads one chunk into the framer. The end of the file and a read error both end
    /// the stream (documented on the publishers).
    private func readChunk() -> ReadResult {
        var count: Int
        repeat {
            count = read(descriptor, buffer.baseAddress, buffer.count)
        } while count < 0 && errno == EINTR
        if count > 0 {
            framer.frame(UnsafeRawBufferPointer(rebasing: buffer[..<count]), into: &output)
            return .data
        }
        return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? .wouldBlock : .end
    }

    /// Sends what the framer has left, then finishes.
    private func end() {
        framer.finish(into: &output)
        sendOutput()
        receiver.finish()
    }

    /// Sends the values the framer made.
    private func sendOutput() {
        for value in output {
            receiver.send(value)
        }
        output.removeAll(keepingCapacity: true)
    }
}

extension FileHandleReader {
    /// Subscribes `subscriber` to what `framer` makes of `handle`'s bytes: the body of
    /// both file handle publishers.
    static func subscribe<S: Subscriber>(_ subscriber: S, to handle: FileHandle, framer: Framer)
    where S.Input == Framer.Output, S.Failure == Never {
        let subscription = EventSubscription(downstream: subscriber, policy: .buffer)
        subscriber.receive(subscription: subscription)
        guard subscription.isActive else { return }
        let reader = FileHandleReader(handle: handle, framer: framer, receiver: subscription)
        subscription.attach(stop: reader.stop, demandDidIncrease: reader.demandDidIncrease)
        reader.start()
    }
}
