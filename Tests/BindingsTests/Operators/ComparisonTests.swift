import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: min, max, min(by:), max(by:), tryMin(by:), tryMax(by:)")
struct OperatorsComparisonTests {
    @Test func minAndMaxPublishAtTheEnd() {
        let subject = PassthroughSubject<Int, Never>()
        let low = TestRecorder<Int, Never>()
        let high = TestRecorder<Int, Never>()
        subject.min().subscribe(low)
        subject.max().subscribe(high)
        for value in [3, 1, 4, 1, 5] { subject.send(value) }
        #expect(low.events.isEmpty)
        subject.send(completion: .finished)
        #expect(low.events == [.value(1), .finished])
        #expect(high.events == [.value(5), .finished])
    }

    @Test func ofEqualElementsTheFirstIsPublished() {
        struct Item: Equatable {
            let rank: Int
            let name: String
        }
        let items = [Item(rank: 2, name: "a"), Item(rank: 1, name: "b"), Item(rank: 2, name: "c"), Item(rank: 1, name: "d")]
        let low = TestRecorder<Item, Never>()
        let high = TestRecorder<Item, Never>()
        AnyPublisher(items.publisher).min { $0.rank < $1.rank }.subscribe(low)
        AnyPublisher(items.publisher).max { $0.rank < $1.rank }.subscribe(high)
        #expect(low.values.map(\.name) == ["b"])
        #expect(high.values.map(\.name) == ["a"])
    }

    @Test func anEmptyUpstreamFinishesWithoutAValue() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none)
        Empty<Int, Never>().max().subscribe(recorder)
        #expect(recorder.events == [.finished])
    }

    @Test func theResultWaitsForARequest() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none)
        upstream.min().subscribe(recorder)
        #expect(upstream.requests == [.unlimited])
        upstream.send(2)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(3))
        #expect(recorder.events == [.value(1), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func upstreamFailureGoesDown() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>()
        subject.max().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom)])
    }

    @Test func tryMinAndTryMaxFailWithTheThrownErrorAndCancelUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, any Error>()
        upstream.tryMax { lhs, rhs in
            if rhs == 13 { throw TestError.boom }
            return lhs < rhs
        }
        .subscribe(recorder)
        upstream.send(1)
        upstream.send(13)
        #expect(recorder.testErrorEvents == [.failure(.boom)])
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
        upstream.send(completion: .finished)
        #expect(recorder.testErrorEvents == [.failure(.boom)])

        let fine = TestRecorder<Int, any Error>()
        [3, 1, 2].publisher.tryMin { $0 < $1 }.subscribe(fine)
        #expect(fine.testErrorEvents == [.value(1), .finished])
        let failing = PassthroughSubject<Int, TestError>()
        let failed = TestRecorder<Int, any Error>()
        failing.tryMax { $0 < $1 }.subscribe(failed)
        failing.send(completion: .failure(.other))
        #expect(failed.testErrorEvents == [.failure(.other)])
    }

    @Test func cancelStopsEverything() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>()
        upstream.min().subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        upstream.send(0)
        upstream.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        #expect(upstream.cancelCount == 1)
    }

    @Test func subscriptionsAreNamedAsCombineNamesThem() {
        let subject = PassthroughSubject<Int, Never>()
        #expect(subscriptionName(of: subject.min()) == "Comparison")
        #expect(subscriptionName(of: subject.tryMax { $0 < $1 }) == "TryComparison")
    }
}
