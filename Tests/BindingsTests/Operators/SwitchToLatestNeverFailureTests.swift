import BindingsTestSupport
import Testing
import Bindings

@Suite("Operators: switchToLatest where one side cannot fail")
struct OperatorsSwitchToLatestNeverFailureTests {
    typealias NeverInner = PassthroughSubject<Int, Never>

    @Test func neverFailingOuterOfFailableInners() {
        let outer = PassthroughSubject<PassthroughSubject<Int, TestError>, Never>()
        let first = PassthroughSubject<Int, TestError>()
        let second = PassthroughSubject<Int, TestError>()
        let switched: Publishers.SwitchToLatest<
            PassthroughSubject<Int, TestError>,
            Publishers.SetFailureType<PassthroughSubject<PassthroughSubject<Int, TestError>, Never>, TestError>
        > = outer.switchToLatest()
        let recorder = TestRecorder<Int, TestError>()
        switched.subscribe(recorder)
        outer.send(first)
        first.send(1)
        outer.send(second)
        first.send(2)
        second.send(3)
        second.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1), .value(3), .failure(.boom)])
    }

    @Test func failableOuterOfNeverFailingInners() {
        let outer = PassthroughSubject<NeverInner, TestError>()
        let first = NeverInner()
        let second = NeverInner()
        let switched: Publishers.SwitchToLatest<
            Publishers.SetFailureType<NeverInner, TestError>,
            Publishers.Map<PassthroughSubject<NeverInner, TestError>, Publishers.SetFailureType<NeverInner, TestError>>
        > = outer.switchToLatest()
        let recorder = TestRecorder<Int, TestError>()
        switched.subscribe(recorder)
        outer.send(first)
        first.send(1)
        outer.send(second)
        first.send(2)
        second.send(3)
        outer.send(completion: .failure(.other))
        second.send(4)
        #expect(recorder.events == [.value(1), .value(3), .failure(.other)])
    }

    @Test func failableOuterOfNeverFailingInnersFinishesAfterBoth() {
        let outer = PassthroughSubject<NeverInner, TestError>()
        let inner = NeverInner()
        let recorder = TestRecorder<Int, TestError>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(inner)
        outer.send(completion: .finished)
        inner.send(1)
        #expect(recorder.events == [.value(1)])
        inner.send(completion: .finished)
        #expect(recorder.events == [.value(1), .finished])
    }

    @Test func finiteDemandGoesToTheCurrentInner() {
        let outer = PassthroughSubject<TestPublisher<Int, Never>, TestError>()
        let inner = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(2))
        outer.switchToLatest().subscribe(recorder)
        outer.send(inner)
        #expect(inner.requests == [.max(2)])
        inner.send(1)
        recorder.request(.max(1))
        #expect(inner.requests == [.max(2), .max(1)])
        #expect(recorder.events == [.value(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancelCancelsTheOuterAndTheCurrentInner() {
        let outer = TestPublisher<TestPublisher<Int, Never>, TestError>()
        let inner = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, TestError>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(inner)
        inner.send(5)
        recorder.cancel()
        #expect(recorder.events == [.value(5)])
        #expect(outer.cancelCount == 1)
        #expect(inner.cancelCount == 1)
    }
}
