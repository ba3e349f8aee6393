import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: output(at:), output(in:)")
struct OperatorsOutputAtTests {
    @Test func outputAtPublishesOneElementThenFinishesAndCancelsUpstream() {
        let upstream = TestPublisher<String, Never>()
        let recorder = TestRecorder<String, Never>()
        upstream.output(at: 1).subscribe(recorder)
        #expect(upstream.send("a") == .max(1))   // before the index: one more in its place
        upstream.send("b")
        #expect(recorder.events == [.value("b"), .finished])
        #expect(upstream.cancelCount == 1)
        upstream.send("c")
        #expect(recorder.events == [.value("b"), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func anUpstreamThatEndsSoonerPublishesNothing() {
        let recorder = TestRecorder<Int, Never>()
        AnyPublisher([1, 2].publisher).output(at: 5).subscribe(recorder)
        #expect(recorder.events == [.finished])
        let failing = PassthroughSubject<Int, TestError>()
        let failed = TestRecorder<Int, TestError>()
        failing.output(at: 2).subscribe(failed)
        failing.send(1)
        failing.send(completion: .failure(.boom))
        #expect(failed.events == [.failure(.boom)])
    }

    @Test func outputInTakesEveryKindOfRange() {
        let closed = TestRecorder<Int, Never>()
        let halfOpen = TestRecorder<Int, Never>()
        let upTo = TestRecorder<Int, Never>()
        let from = TestRecorder<Int, Never>()
        let upstream = AnyPublisher((0..<10).publisher)
        upstream.output(in: 2...4).subscribe(closed)
        upstream.output(in: 2..<4).subscribe(halfOpen)
        upstream.output(in: ..<2).subscribe(upTo)
        upstream.output(in: 8...).subscribe(from)
        #expect(closed.values == [2, 3, 4])
        #expect(halfOpen.values == [2, 3])
        #expect(upTo.values == [0, 1])
        #expect(from.events == [.value(8), .value(9), .finished])
    }

    @Test func outputInHonoursDemand() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1))
        AnyPublisher((0..<10).publisher).output(in: 3...5).subscribe(recorder)
        #expect(recorder.events == [.value(3)])
        recorder.request(.max(2))
        #expect(recorder.events == [.value(3), .value(4), .value(5), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func theTypesAreCombines() {
        let subject = PassthroughSubject<Int, Never>()
        let at: Publishers.Output<PassthroughSubject<Int, Never>> = subject.output(at: 3)
        let within: Publishers.Output<PassthroughSubject<Int, Never>> = subject.output(in: 1...2)
        #expect(at.range == 3..<4)
        #expect(within.range == 1..<3)
    }
}
