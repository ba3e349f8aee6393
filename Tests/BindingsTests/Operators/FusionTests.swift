import BindingsTestSupport
import Testing
import Bindings

@Suite("Operators: consecutive map, compactMap and filter fuse, as Combine's")
struct OperatorsFusionTests {
    @Test func mapAfterMapIsOneMap() {
        let subject = PassthroughSubject<Int, TestError>()
        let fused: Publishers.Map<PassthroughSubject<Int, TestError>, String> = subject.map { $0 + 1 }.map { "#\($0)" }
        let recorder = TestRecorder<String, TestError>()
        fused.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value("#2"), .value("#3"), .failure(.boom)])
    }

    @Test func compactMapAfterCompactMapIsOneCompactMap() {
        let subject = PassthroughSubject<String, Never>()
        let fused: Publishers.CompactMap<PassthroughSubject<String, Never>, Int> =
            subject.compactMap { Int($0) }.compactMap { $0 > 0 ? $0 * 10 : nil }
        let recorder = TestRecorder<Int, Never>()
        fused.subscribe(recorder)
        for text in ["1", "x", "-2", "3"] { subject.send(text) }
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(10), .value(30), .finished])
    }

    @Test func mapAfterCompactMapIsOneCompactMap() {
        let calls = Counter()
        let fused: Publishers.CompactMap<Publishers.Sequence<[String], Never>, String> =
            ["1", "x", "3"].publisher.compactMap { Int($0) }.map { value -> String in
                calls.increment()
                return "#\(value)"
            }
        let recorder = TestRecorder<String, Never>()
        fused.subscribe(recorder)
        #expect(recorder.events == [.value("#1"), .value("#3"), .finished])
        #expect(calls.value == 2)   // only for the values the first transform kept
    }

    @Test func filterAfterFilterIsOneFilter() {
        let subject = PassthroughSubject<Int, Never>()
        let fused: Publishers.Filter<PassthroughSubject<Int, Never>> =
            subject.filter { $0 > 1 }.filter { $0.isMultiple(of: 2) }
        let recorder = TestRecorder<Int, Never>()
        fused.subscribe(recorder)
        for value in 1...6 { subject.send(value) }
        #expect(recorder.events == [.value(2), .value(4), .value(6)])
    }

    @Test func aFusedCompactMapReplacesEachDroppedValueWithOneRequest() {
        let upstream = TestPublisher<String, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1))
        upstream.compactMap { Int($0) }.compactMap { $0 > 0 ? $0 : nil }.subscribe(recorder)
        #expect(upstream.send("x") == .max(1))    // dropped by the first transform
        #expect(upstream.send("-1") == .max(1))   // dropped by the second
        #expect(upstream.send("4") == .none)
        #expect(recorder.events == [.value(4)])
        #expect(upstream.requests == [.max(1)])
        #expect(recorder.violations.isEmpty)
    }

    @Test func cancellingAFusedMapCancelsTheUpstreamOnce() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<String, Never>()
        upstream.map { $0 * 2 }.map { "\($0)" }.subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        #expect(recorder.events == [.value("2")])
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
    }
}
