import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: tryFilter, tryCompactMap, tryRemoveDuplicates, tryScan")
struct OperatorsTryFilteringTests {
    @Test func tryFilterRepublishesMatchesAndAsksForReplacements() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, any Error>(initialDemand: .max(2))
        upstream.tryFilter { $0.isMultiple(of: 2) }.subscribe(recorder)
        #expect(upstream.requests == [.max(2)])
        #expect(upstream.send(1) == .max(1))   // dropped: one more in its place
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(4) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.testErrorEvents == [.value(2), .value(4), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func tryFilterFailsWithTheThrownErrorAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, any Error>()
        upstream.tryFilter { try throwing(on: 3)($0) > 1 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(4)
        upstream.send(completion: .finished)
        #expect(recorder.testErrorEvents == [.value(2), .failure(.boom)])
        #expect(upstream.cancelCount == 1)
    }

    @Test func tryFilterFusesWithFilter() {
        let subject = PassthroughSubject<Int, Never>()
        let afterFilter: Publishers.TryFilter<PassthroughSubject<Int, Never>> =
            subject.filter { $0 > 1 }.tryFilter { try throwing(on: 9)($0) < 10 }
        let thenFilter: Publishers.TryFilter<PassthroughSubject<Int, Never>> =
            subject.tryFilter { $0 > 1 }.filter { $0 < 10 }
        let twice: Publishers.TryFilter<PassthroughSubject<Int, Never>> =
            subject.tryFilter { $0 > 1 }.tryFilter { $0 < 10 }
        let first = TestRecorder<Int, any Error>()
        let second = TestRecorder<Int, any Error>()
        let third = TestRecorder<Int, any Error>()
        afterFilter.subscribe(first)
        thenFilter.subscribe(second)
        twice.subscribe(third)
        for value in [1, 2, 11, 9] { subject.send(value) }
        #expect(first.testErrorEvents == [.value(2), .failure(.boom)])
        #expect(second.testErrorEvents == [.value(2), .value(9)])
        #expect(third.testErrorEvents == [.value(2), .value(9)])
    }

    @Test func tryCompactMapDropsNilsAndFailsWithTheThrownError() {
        let upstream = TestPublisher<String, Never>()
        let recorder = TestRecorder<Int, any Error>()
        upstream.tryCompactMap { text -> Int? in
            if text == "!" { throw TestError.boom }
            return Int(text)
        }
        .subscribe(recorder)
        upstream.send("1")
        #expect(upstream.send("x") == .max(1))
        upstream.send("3")
        upstream.send("!")
        upstream.send("4")
        #expect(recorder.testErrorEvents == [.value(1), .value(3), .failure(.boom)])
        #expect(upstream.cancelCount == 1)
    }

    @Test func tryCompactMapFusesWithCompactMap() {
        let subject = PassthroughSubject<String, Never>()
        let fused: Publishers.TryCompactMap<PassthroughSubject<String, Never>, Int> =
            subject.tryCompactMap { Int($0) }.compactMap { $0 > 0 ? $0 * 10 : nil }
        let recorder = TestRecorder<Int, any Error>()
        fused.subscribe(recorder)
        for text in ["1", "x", "-2", "3"] { subject.send(text) }
        subject.send(completion: .finished)
        #expect(recorder.testErrorEvents == [.value(10), .value(30), .finished])
    }

    @Test func tryRemoveDuplicatesComparesWithTheLastPublished() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, any Error>()
        upstream.tryRemoveDuplicates { lhs, rhs in
            if rhs == 9 { throw TestError.boom }
            return lhs == rhs
        }
        .subscribe(recorder)
        upstream.send(1)
        #expect(upstream.send(1) == .max(1))
        upstream.send(2)
        upstream.send(1)
        upstream.send(9)
        upstream.send(3)
        #expect(recorder.testErrorEvents == [.value(1), .value(2), .value(1), .failure(.boom)])
        #expect(upstream.cancelCount == 1)

        let failing = PassthroughSubject<Int, TestError>()
        let failed = TestRecorder<Int, any Error>()
        failing.tryRemoveDuplicates(by: ==).subscribe(failed)
        failing.send(completion: .failure(.other))
        #expect(failed.testErrorEvents == [.failure(.other)])
    }

    @Test func tryScanPublishesEachRunningResult() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, any Error>(initialDemand: .max(1))
        upstream.tryScan(0) { total, value in
            if value < 0 { throw TestError.boom }
            return total + value
        }
        .subscribe(recorder)
        #expect(upstream.requests == [.max(1)])
        upstream.send(1)
        recorder.request(.max(2))
        upstream.send(2)
        upstream.send(3)
        upstream.send(-1)
        upstream.send(4)
        #expect(recorder.testErrorEvents == [.value(1), .value(3), .value(6), .failure(.boom)])
        #expect(upstream.log == [.subscribed, .request(.max(1)), .request(.max(2)), .cancel])
    }

    @Test func tryScanStartsAfreshForEachSubscription() {
        let publisher = [1, 2].publisher.tryScan(10, +)
        let first = TestRecorder<Int, any Error>()
        let second = TestRecorder<Int, any Error>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.testErrorEvents == [.value(11), .value(13), .finished])
        #expect(second.testErrorEvents == [.value(11), .value(13), .finished])
    }

    @Test func cancelStopsEverything() {
        let upstream = TestPublisher<Int, Never>()
        let filtered = TestRecorder<Int, any Error>()
        upstream.tryFilter { _ in true }.subscribe(filtered)
        upstream.send(1)
        filtered.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(filtered.testErrorEvents == [.value(1)])
        #expect(upstream.cancelCount == 1)
    }

    @Test func subscriptionsAreNamedAsCombineNamesThem() {
        let subject = PassthroughSubject<Int, Never>()
        #expect(subscriptionName(of: subject.tryFilter { _ in true }) == "TryFilter")
        #expect(subscriptionName(of: subject.tryCompactMap { $0 }) == "TryCompactMap")
        #expect(subscriptionName(of: subject.tryRemoveDuplicates(by: ==)) == "TryRemoveDuplicates")
        #expect(subscriptionName(of: subject.tryScan(0, +)) == "TryScan")
    }
}
