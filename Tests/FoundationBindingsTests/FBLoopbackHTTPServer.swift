import BindingsTestSupport
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1, on a port the system picks, that answers every
/// request with one fixed response and closes the connection: the only server the
/// `URLSession` tests talk to (they never reach the network).
///
/// It serves one connection at a time, on a thread of its own, and notes each request
/// line (`GET /path HTTP/1.1`). A server made with `holdsResponse` waits, after reading
/// a request, until ``releaseResponse()``, so that a test can cancel while the request
/// is in flight.
///
/// `@unchecked Sendable`: the stored properties are `let`s set in `init`, before the
/// serving thread starts; the semaphores and the log are thread-safe; the listening
/// socket is only closed by ``stop()``, after the serving thread has ended.
final class LoopbackHTTPServer: @unchecked Sendable {
    /// The port the server listens on.
    let port: UInt16
    private let listener: Int32
    private let response: [UInt8]
    private let holdsResponse: Bool
    private let requestLines = LockedLog<String>()
    private let requestArrived = DispatchSemaphore(value: 0)
    private let responseReleased = DispatchSemaphore(value: 0)
    private let responseWritten = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts a server that answers `status reason` with `body` as `text/plain`.
    init(status: Int, reason: String, body: String, holdsResponse: Bool = false) {
        let head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/plain\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        response = Array((head + body).utf8)
        self.holdsResponse = holdsResponse
        (listener, port) = Self.loopbackSocket(listening: true)
        let server = self
        Thread { server.serve() }.start()
    }

    /// The request lines received so far, in order.
    var requests: [String] { requestLines.items }

    /// Waits until a request has arrived; returns whether one did within `timeout`.
    func waitForRequest(timeout: Double = 5) -> Bool {
        requestArrived.wait(timeout: .now() + timeout) == .success
    }

    /// Lets a holding server write its response; waits until it has written it (or
    /// failed to, the client having gone), and returns whether it did within `timeout`.
    func releaseResponse(timeout: Double = 5) -> Bool {
        responseReleased.signal()
        return responseWritten.wait(timeout: .now() + timeout) == .success
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops serving and closes the socket.
    func stop() {
        responseReleased.signal()   // a held response does not keep the thread
        // Shutting a listening socket down makes a blocked `accept` return.
        shutdown(listener, Int32(SHUT_RDWR))
        _ = finished.wait(timeout: .now() + 5)
        close(listener)
    }

    /// A socket bound to 127.0.0.1 on a port the system picks, and that port. Without
    /// `listening`, connecting to it is refused (for as long as it stays open).
    static func loopbackSocket(listening: Bool) -> (socket: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket: errno \(errno)")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        precondition(inet_pton(AF_INET, "127.0.0.1", &address.sin_addr) == 1)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        precondition(bound, "bind: errno \(errno)")
        if listening { precondition(listen(fd, 8) == 0, "listen: errno \(errno)") }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Accepts connections one at a time until ``stop()``.
    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                break   // shut down
            }
            answer(client)
            close(client)
        }
        finished.signal()
    }

    /// Reads a request's head, notes its first line, and writes the response.
    private func answer(_ client: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let endOfHead: [UInt8] = Array("\r\n\r\n".utf8)
        while received.firstRange(of: endOfHead) == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return }
            received += buffer[..<count]
        }
        let head = String(decoding: received, as: UTF8.self)
        requestLines.append(head.components(separatedBy: "\r\n")[0])
        requestArrived.signal()
        if holdsResponse { responseReleased.wait() }
        // MSG_NOSIGNAL: a client that has gone gets an error, not a SIGPIPE that ends
        // the test process.
        _ = response.withUnsafeBytes { bytes in
            send(client, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        }
        responseWritten.signal()
    }
}
