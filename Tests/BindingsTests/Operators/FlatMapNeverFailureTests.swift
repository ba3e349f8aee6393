import BindingsTestSupport
import Testing
import Bindings

@Suite("Operators: flatMap where one side cannot fail")
struct OperatorsFlatMapNeverFailureTests {
    @Test func neverFailingUpstreamOfFailableInners() {
        let upstream = PassthroughSubject<Int, Never>()
        let inners = (0..<2).map { _ in PassthroughSubject<String, TestError>() }
        let cancels = Counter()
        let flattened: Publishers.FlatMap<
            PassthroughSubject<String, TestError>,
            Publishers.SetFailureType<Publishers.HandleEvents<PassthroughSubject<Int, Never>>, TestError>
        > = upstream.handleEvents(receiveCancel: { cancels.increment() }).flatMap { inners[$0] }
        let recorder = TestRecorder<String, TestError>()
        flattened.subscribe(recorder)
        upstream.send(0)
        upstream.send(1)
        inners[0].send("a")
        inners[1].send("b")
        inners[1].send(completion: .failure(.boom))
        inners[0].send("late")
        #expect(recorder.events == [.value("a"), .value("b"), .failure(.boom)])
        #expect(cancels.value == 1)   // the inner's failure cancels the upstream
    }

    @Test func failableUpstreamOfNeverFailingInners() {
        let upstream = PassthroughSubject<Int, TestError>()
        let flattened: Publishers.FlatMap<Publishers.SetFailureType<Just<String>, TestError>, PassthroughSubject<Int, TestError>> =
            upstream.flatMap { Just("#\($0)") }
        let recorder = TestRecorder<String, TestError>()
        flattened.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.other))
        #expect(recorder.events == [.value("#1"), .value("#2"), .failure(.other)])
    }

    @Test func neitherSideCanFail() {
        let upstream = PassthroughSubject<Int, Never>()
        let flattened: Publishers.FlatMap<Just<Int>, PassthroughSubject<Int, Never>> = upstream.flatMap { Just($0 * 10) }
        let recorder = TestRecorder<Int, Never>()
        flattened.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(10), .value(20), .finished])
    }

    @Test func maxPublishersAndFiniteDemandWithANeverFailingUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let inners = (0..<2).map { _ in TestPublisher<String, TestError>() }
        let recorder = TestRecorder<String, TestError>(initialDemand: .max(1))
        upstream.flatMap(maxPublishers: .max(1)) { inners[$0] }.subscribe(recorder)
        #expect(upstream.requests == [.max(1)])
        upstream.send(0)
        #expect(inners[0].requests == [.max(1)])
        inners[0].send("a")
        inners[0].send(completion: .finished)
        #expect(upstream.requests == [.max(1), .max(1)])   // the finished inner frees its slot
        upstream.send(1)
        #expect(inners[1].requests == [.max(1)])
        inners[1].send("b")   // no demand left: it waits
        #expect(recorder.events == [.value("a")])
        recorder.request(.max(1))
        #expect(recorder.events == [.value("a"), .value("b")])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelCancelsTheUpstreamAndTheInners() {
        let upstream = TestPublisher<Int, Never>()
        let inner = TestPublisher<String, TestError>()
        let recorder = TestRecorder<String, TestError>()
        upstream.flatMap { _ in inner }.subscribe(recorder)
        upstream.send(0)
        inner.send("a")
        recorder.cancel()
        #expect(recorder.events == [.value("a")])
        #expect(upstream.cancelCount == 1)
        #expect(inner.cancelCount == 1)
    }
}
