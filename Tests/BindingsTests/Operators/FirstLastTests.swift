import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: first, first(where:), tryFirst(where:), last, last(where:), tryLast(where:)")
struct OperatorsFirstLastTests {
    @Test func firstCancelsUpstreamAfterTheFirstValue() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>()
        upstream.first().subscribe(recorder)
        #expect(upstream.log == [.subscribed, .request(.unlimited)])
        upstream.send(7)
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
        #expect(recorder.events == [.value(7), .finished])
        upstream.send(8)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(7), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func theFirstValueWaitsForARequest() {
        let subject = CurrentValueSubject<String, Never>("ada")
        let recorder = TestRecorder<String, Never>(initialDemand: .none)
        subject.first().subscribe(recorder)
        subject.send("grace")
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value("ada"), .finished])
    }

    @Test func anEmptyUpstreamFinishesWithoutAValue() {
        let first = TestRecorder<Int, Never>(initialDemand: .none)
        let last = TestRecorder<Int, Never>(initialDemand: .none)
        let none = TestRecorder<Int, Never>(initialDemand: .none)
        Empty<Int, Never>().first().subscribe(first)
        Empty<Int, Never>().last().subscribe(last)
        AnyPublisher([1, 2].publisher).first { $0 > 5 }.subscribe(none)
        #expect(first.events == [.finished])
        #expect(last.events == [.finished])
        #expect(none.events == [.finished])
    }

    @Test func firstWhereSettlesAtTheFirstMatch() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Int, Never>()
        upstream.first { $0 > 4 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(5)
        upstream.send(6)
        #expect(recorder.events == [.value(5), .finished])
        #expect(upstream.cancelCount == 1)
    }

    @Test func lastPublishesTheLastValueAtTheEnd() {
        let subject = PassthroughSubject<Int, Never>()
        let last = TestRecorder<Int, Never>()
        let lastEven = TestRecorder<Int, Never>()
        subject.last().subscribe(last)
        subject.last { $0.isMultiple(of: 2) }.subscribe(lastEven)
        for value in [1, 2, 3, 4, 5] { subject.send(value) }
        #expect(last.events.isEmpty)
        subject.send(completion: .finished)
        #expect(last.events == [.value(5), .finished])
        #expect(lastEven.events == [.value(4), .finished])
    }

    @Test func upstreamFailuresGoDown() {
        let subject = PassthroughSubject<Int, TestError>()
        let first = TestRecorder<Int, TestError>()
        let last = TestRecorder<Int, TestError>()
        subject.first { $0 > 5 }.subscribe(first)
        subject.last().subscribe(last)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(first.events == [.failure(.boom)])
        #expect(last.events == [.failure(.boom)])
    }

    @Test func tryVariantsFailWithTheThrownErrorAndCancelUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let first = TestRecorder<Int, any Error>()
        upstream.tryFirst { try throwing(on: 2)($0) > 5 }.subscribe(first)
        upstream.send(1)
        upstream.send(2)
        #expect(first.testErrorEvents == [.failure(.boom)])
        #expect(upstream.cancelCount == 1)

        let other = TestPublisher<Int, Never>()
        let last = TestRecorder<Int, any Error>()
        other.tryLast { try throwing(on: 3)($0) > 0 }.subscribe(last)
        other.send(1)
        other.send(3)
        other.send(completion: .finished)
        #expect(last.testErrorEvents == [.failure(.boom)])
        #expect(other.cancelCount == 1)
    }

    @Test func tryVariantsWithoutAnErrorBehaveAsTheOthers() {
        let first = TestRecorder<Int, any Error>()
        [1, 5, 6].publisher.tryFirst { $0 > 4 }.subscribe(first)
        #expect(first.testErrorEvents == [.value(5), .finished])
        let last = TestRecorder<Int, any Error>()
        [1, 5, 6, 2].publisher.tryLast { $0 > 4 }.subscribe(last)
        #expect(last.testErrorEvents == [.value(6), .finished])
        let failing = PassthroughSubject<Int, TestError>()
        let failed = TestRecorder<Int, any Error>()
        failing.tryLast { $0 > 4 }.subscribe(failed)
        failing.send(completion: .failure(.other))
        #expect(failed.testErrorEvents == [.failure(.other)])
    }

    @Test func aReentrantSendFromTheFirstValueIsNotDelivered() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>()
        recorder.onValue = { value in subject.send(value + 1) }
        subject.first().subscribe(recorder)
        subject.send(1)
        subject.send(5)
        #expect(recorder.events == [.value(1), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func subscriptionsAreNamedAsCombineNamesThem() {
        let subject = PassthroughSubject<Int, Never>()
        #expect(subscriptionName(of: subject.first()) == "First")
        #expect(subscriptionName(of: subject.first { $0 > 0 }) == "FirstWhere")
        #expect(subscriptionName(of: subject.tryFirst { $0 > 0 }) == "TryFirstWhere")
        #expect(subscriptionName(of: subject.last()) == "Last")
        #expect(subscriptionName(of: subject.last { $0 > 0 }) == "LastWhere")
        #expect(subscriptionName(of: subject.tryLast { $0 > 0 }) == "TryLastWhere")
    }
}
