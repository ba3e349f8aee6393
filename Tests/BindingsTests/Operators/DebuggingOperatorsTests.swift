import BindingsTestSupport
import Testing
@testable import Bindings

/// A text stream that keeps what is written to it (a class, so that `print(_:to:)`'s
/// copies all write here).
private final class LogStream: TextOutputStream, @unchecked Sendable {
    // `@unchecked Sendable`: `text` is only touched with the log's own lock held.
    private let log = Locked("")

    var text: String { log.value }

    func write(_ string: String) {
        log.withLock { $0 += string }
    }
}

@Suite("Operators: print, breakpoint, breakpointOnError, assertNoFailure")
struct OperatorsDebuggingTests {
    @Test func printLogsEveryEventAsCombineDoes() {
        let stream = LogStream()
        let recorder = TestRecorder<Int, Never>()
        [1, 2].publisher.print("numbers", to: stream).subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(stream.text == """
            numbers: receive subscription: ([1, 2])
            numbers: request unlimited
            numbers: receive value: (1)
            numbers: receive value: (2)
            numbers: receive finished

            """)
    }

    @Test func printLogsRequestsSynchronousDemandErrorsAndCancel() {
        let stream = LogStream()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(2), releasesSubscription: [])
        upstream.print(to: stream).subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        recorder.subscription?.cancel()
        #expect(recorder.events == [.value(1), .failure(.boom)])
        let lines = stream.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("receive subscription: (") == true)
        #expect(lines.dropFirst() == [
            "request max: (1)",
            "receive value: (1)",
            "request max: (2) (synchronous)",
            "receive error: (boom)",
            "receive cancel",
            "",
        ])
        #expect(upstream.requests == [.max(1)])
        #expect(upstream.cancelCount == 0)   // it had completed
    }

    @Test func printForwardsDemandAndCancelAndDropsLateEvents() {
        let stream = LogStream()
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(3))
        upstream.print("p", to: stream).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(1)])
        #expect(upstream.log == [.subscribed, .request(.max(3)), .cancel])
        #expect(stream.text.hasSuffix("p: receive value: (1)\np: receive cancel\n"))
    }

    @Test func breakpointPassesEverythingThroughWhenNoClosureSaysStop() {
        let seen = LockedLog<String>()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>()
        subject.breakpoint(
            receiveSubscription: { _ in seen.append("subscription"); return false },
            receiveOutput: { seen.append("value \($0)"); return false },
            receiveCompletion: { seen.append("completion \($0)"); return false }
        )
        .subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1), .failure(.boom)])
        #expect(seen.items == ["subscription", "value 1", "completion failure(BindingsTestSupport.TestError.boom)"])

        let finishing = TestRecorder<Int, Never>()
        [1].publisher.breakpointOnError().subscribe(finishing)
        #expect(finishing.events == [.value(1), .finished])
    }

    @Test func breakpointPassesTheUpstreamSubscriptionThrough() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(2))
        upstream.breakpoint().subscribe(recorder)
        recorder.cancel()
        #expect(upstream.log == [.subscribed, .request(.max(2)), .cancel])
    }

    @Test func assertNoFailurePassesValuesAndFinished() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, Never>()
        let publisher: Publishers.AssertNoFailure<PassthroughSubject<Int, TestError>> = subject.assertNoFailure("check")
        publisher.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(1), .finished])
        #expect(publisher.prefix == "check")
        #expect(publisher.line > 0)
    }
}
