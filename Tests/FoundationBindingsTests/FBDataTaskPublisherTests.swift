import Bindings
import BindingsTestSupport
import Foundation
import Testing
@testable import FoundationBindings
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every test talks to a ``LoopbackHTTPServer`` it starts itself on 127.0.0.1: none
/// reaches the network.
@Suite("FoundationBindings: URLSession.dataTaskPublisher")
struct FBDataTaskPublisherTests {
    /// What a test compares of a response: its body, as text, and its status code.
    struct Reply: Equatable {
        let body: String
        let status: Int?
    }

    typealias Recorder = TestRecorder<URLSession.DataTaskPublisher.Output, URLError>

    private static func reply(_ output: URLSession.DataTaskPublisher.Output) -> Reply {
        Reply(body: String(decoding: output.data, as: UTF8.self), status: (output.response as? HTTPURLResponse)?.statusCode)
    }

    /// A session of the test's own, without caches or cookies.
    private static func makeSession() -> URLSession {
        URLSession(configuration: .ephemeral)
    }

    @Test func a200SendsItsBodyAndResponseThenFinishes() {
        let server = LoopbackHTTPServer(status: 200, reason: "OK", body: "hello, bindings")
        defer { server.stop() }
        let session = Self.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let recorder = Recorder(releasesSubscription: [.onCompletion, .onCancel])
        session.dataTaskPublisher(for: server.url("/greeting")).subscribe(recorder)

        #expect(recorder.wait(forCount: 2))
        #expect(recorder.events(Self.reply) == [.value(Reply(body: "hello, bindings", status: 200)), .finished])
        #expect(recorder.values.first?.data == Data("hello, bindings".utf8))
        #expect(recorder.values.first?.response.url == server.url("/greeting"))
        #expect(server.requests == ["GET /greeting HTTP/1.1"])
        #expect(recorder.violations == [])
    }

    @Test func a404IsAValueAsInCombine() {
        let server = LoopbackHTTPServer(status: 404, reason: "Not Found", body: "no such page")
        defer { server.stop() }
        let session = Self.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let recorder = Recorder(releasesSubscription: [.onCompletion, .onCancel])
        session.dataTaskPublisher(for: server.url("/missing")).subscribe(recorder)

        #expect(recorder.wait(forCount: 2))
        #expect(recorder.events(Self.reply) == [.value(Reply(body: "no such page", status: 404)), .finished])
    }

    @Test func aRefusedConnectionFailsWithCannotConnectToHost() {
        // Bound but not listening: connecting is refused, for as long as it stays open.
        let (socket, port) = LoopbackHTTPServer.loopbackSocket(listening: false)
        defer { close(socket) }
        let session = Self.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let recorder = Recorder(releasesSubscription: [.onCompletion, .onCancel])
        session.dataTaskPublisher(for: URL(string: "http://127.0.0.1:\(port)/")!).subscribe(recorder)

        #expect(recorder.wait(forCount: 1))
        let events = recorder.events
        #expect(events.count == 1)
        guard case .failure(let error)? = events.first else {
            Issue.record("expected a failure, got \(events)")
            return
        }
        #expect(error.code == .cannotConnectToHost)
    }

    @Test func nothingIsRequestedBeforeTheFirstDemand() {
        let server = LoopbackHTTPServer(status: 200, reason: "OK", body: "on demand")
        defer { server.stop() }
        let session = Self.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let recorder = Recorder(initialDemand: .none, releasesSubscription: [.onCompletion, .onCancel])
        session.dataTaskPublisher(for: server.url("/lazy")).subscribe(recorder)

        // Long enough for a request made at subscription to reach the server.
        #expect(!server.waitForRequest(timeout: 0.2))
        #expect(server.requests == [])
        #expect(recorder.events(Self.reply) == [])

        recorder.request(.max(1))
        #expect(recorder.wait(forCount: 2))
        #expect(recorder.events(Self.reply) == [.value(Reply(body: "on demand", status: 200)), .finished])
        #expect(server.requests == ["GET /lazy HTTP/1.1"])
    }

    @Test func cancellingBeforeTheResponseDeliversNothing() {
        let server = LoopbackHTTPServer(status: 200, reason: "OK", body: "too late", holdsResponse: true)
        defer { server.stop() }
        let session = Self.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let recorder = Recorder(releasesSubscription: [.onCompletion, .onCancel])
        session.dataTaskPublisher(for: server.url("/slow")).subscribe(recorder)

        #expect(server.waitForRequest())
        weak let subscription = recorder.subscription as AnyObject?
        recorder.cancel()
        // The server answers after the cancel (or finds the connection closed).
        #expect(server.releaseResponse())
        // Time for a response that got through to arrive.
        #expect(!recorder.wait(timeout: 0.2) { !$0.isEmpty })
        #expect(recorder.events(Self.reply) == [])
        #expect(eventually { subscription == nil })
    }

    @Test func aRequestIsSentAsItIs() {
        let server = LoopbackHTTPServer(status: 201, reason: "Created", body: "")
        defer { server.stop() }
        let session = Self.makeSession()
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: server.url("/items"))
        request.httpMethod = "DELETE"
        let publisher = session.dataTaskPublisher(for: request)
        #expect(publisher.request == request)
        #expect(publisher.session === session)
        let recorder = Recorder(releasesSubscription: [.onCompletion, .onCancel])
        publisher.subscribe(recorder)

        #expect(recorder.wait(forCount: 2))
        #expect(recorder.events(Self.reply) == [.value(Reply(body: "", status: 201)), .finished])
        #expect(server.requests == ["DELETE /items HTTP/1.1"])
    }

    @Test func everySubscriberMakesItsOwnRequest() {
        let server = LoopbackHTTPServer(status: 200, reason: "OK", body: "again")
        defer { server.stop() }
        let session = Self.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let publisher = session.dataTaskPublisher(for: server.url("/twice"))
        let first = Recorder(releasesSubscription: [.onCompletion, .onCancel])
        let second = Recorder(releasesSubscription: [.onCompletion, .onCancel])
        publisher.subscribe(first)
        #expect(first.wait(forCount: 2))
        publisher.subscribe(second)
        #expect(second.wait(forCount: 2))
        #expect(first.events(Self.reply) == [.value(Reply(body: "again", status: 200)), .finished])
        #expect(second.events(Self.reply) == first.events(Self.reply))
        #expect(server.requests == ["GET /twice HTTP/1.1", "GET /twice HTTP/1.1"])
    }

    @Test func aCompletedTaskIsPublishedAsCombineDoes() {
        typealias Publisher = URLSession.DataTaskPublisher
        let response = URLResponse(url: URL(string: "http://127.0.0.1/")!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
        // A response without data is empty data.
        let empty = try? Publisher.outcome(data: nil, response: response, error: nil).get()
        #expect(empty?.data == Data())
        // Neither a response nor an error: unknown.
        #expect(Self.code(Publisher.outcome(data: nil, response: nil, error: nil)) == .unknown)
        // An error wins over a response.
        let timedOut = NSError(domain: NSURLErrorDomain, code: URLError.timedOut.rawValue)
        #expect(Self.code(Publisher.outcome(data: Data(), response: response, error: timedOut)) == .timedOut)
        #expect(Self.code(Publisher.outcome(data: nil, response: nil, error: URLError(.notConnectedToInternet))) == .notConnectedToInternet)
        // An error of another domain is unknown, and kept as the underlying error.
        #expect(Self.code(Publisher.outcome(data: nil, response: nil, error: TestError.boom)) == .unknown)
    }

    /// The code of a failed outcome, or `nil` for a value.
    private static func code(_ outcome: Result<URLSession.DataTaskPublisher.Output, URLError>) -> URLError.Code? {
        if case .failure(let error) = outcome { return error.code }
        return nil
    }
}
