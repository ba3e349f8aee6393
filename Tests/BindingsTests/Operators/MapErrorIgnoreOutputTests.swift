import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: mapError, ignoreOutput")
struct OperatorsMapErrorIgnoreOutputTests {
    @Test func mapErrorConvertsTheFailureAndPassesValuesThrough() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>()
        subject.mapError { _ in TestError.other }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1), .failure(.other)])

        let finishing = TestRecorder<Int, TestError>()
        [1].publisher.setFailureType(to: TestError.self).mapError { _ in TestError.other }.subscribe(finishing)
        #expect(finishing.events == [.value(1), .finished])
    }

    @Test func mapErrorPassesTheUpstreamSubscriptionThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.mapError { $0 }.subscribe(recorder)
        #expect(upstream.requests == [.max(2)])
        #expect(upstream.send(1) == .max(1))
        recorder.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(recorder.subscription == nil)
    }

    @Test func mapErrorBothInitializersKeepTheTransform() {
        let subject = PassthroughSubject<Int, TestError>()
        let labelled = Publishers.MapError(upstream: subject, transform: { _ in TestError(1) })
        let unlabelled = Publishers.MapError(upstream: subject, { _ in TestError(2) })
        #expect(labelled.transform(.boom) == TestError(1))
        #expect(unlabelled.transform(.boom) == TestError(2))
    }

    @Test func ignoreOutputPassesOnlyTheCompletion() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Never, TestError>(initialDemand: .none)
        upstream.ignoreOutput().subscribe(recorder)
        // It asks for everything itself: the upstream runs to its end.
        #expect(upstream.requests == [.unlimited])
        #expect(upstream.send(1) == .none)
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events.count == 1)
        #expect(recorder.events.first.map { "\($0)" } == "failure(boom)")

        let finishing = TestRecorder<Never, Never>()
        AnyPublisher([1, 2, 3].publisher).ignoreOutput().subscribe(finishing)
        #expect(finishing.events.map { "\($0)" } == ["finished"])
    }

    @Test func ignoreOutputCancelCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Never, Never>()
        upstream.ignoreOutput().subscribe(recorder)
        recorder.cancel()
        #expect(upstream.cancelCount == 1)
    }
}
