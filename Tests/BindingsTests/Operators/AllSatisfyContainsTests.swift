import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: allSatisfy, tryAllSatisfy, contains, contains(where:), tryContains(where:)")
struct OperatorsAllSatisfyContainsTests {
    @Test func allSatisfyIsTrueAtTheEndWhenEveryValuePasses() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Bool, Never>()
        subject.allSatisfy { $0 > 0 }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(true), .finished])

        let empty = TestRecorder<Bool, Never>()
        Empty<Int, Never>().allSatisfy { _ in false }.subscribe(empty)
        #expect(empty.events == [.value(true), .finished])
    }

    @Test func theFirstFailingValueSettlesItAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Bool, Never>(initialDemand: .none)
        upstream.allSatisfy { $0 > 0 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(-1)
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
        #expect(recorder.events.isEmpty)   // no demand yet
        upstream.send(2)                   // late: dropped
        recorder.request(.max(1))
        #expect(recorder.events == [.value(false), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func containsSettlesAtTheFirstMatch() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = TestRecorder<Bool, Never>()
        upstream.contains(2).subscribe(recorder)
        upstream.send(1)
        #expect(recorder.events.isEmpty)
        upstream.send(2)
        #expect(recorder.events == [.value(true), .finished])
        #expect(upstream.cancelCount == 1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(true), .finished])

        let missing = TestRecorder<Bool, Never>()
        AnyPublisher([1, 3].publisher).contains(2).subscribe(missing)
        #expect(missing.events == [.value(false), .finished])
    }

    @Test func containsWhereSettlesAtTheFirstMatch() {
        let calls = Counter()
        let recorder = TestRecorder<Bool, Never>()
        AnyPublisher([1, 5, 7].publisher).contains { value in
            calls.increment()
            return value > 4
        }
        .subscribe(recorder)
        #expect(recorder.events == [.value(true), .finished])
        #expect(calls.value == 2)

        let none = TestRecorder<Bool, Never>()
        AnyPublisher([1, 2].publisher).contains { $0 > 4 }.subscribe(none)
        #expect(none.events == [.value(false), .finished])
    }

    @Test func upstreamFailuresGoDown() {
        let subject = PassthroughSubject<Int, TestError>()
        let all = TestRecorder<Bool, TestError>()
        let some = TestRecorder<Bool, TestError>()
        let equal = TestRecorder<Bool, TestError>()
        subject.allSatisfy { $0 > 0 }.subscribe(all)
        subject.contains { $0 > 9 }.subscribe(some)
        subject.contains(9).subscribe(equal)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(all.events == [.failure(.boom)])
        #expect(some.events == [.failure(.boom)])
        #expect(equal.events == [.failure(.boom)])
    }

    @Test func tryVariantsFailWithTheThrownErrorAndCancelUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let all = TestRecorder<Bool, any Error>()
        upstream.tryAllSatisfy { try throwing(on: 2)($0) > 0 }.subscribe(all)
        upstream.send(1)
        upstream.send(2)
        #expect(all.testErrorEvents == [.failure(.boom)])
        #expect(upstream.cancelCount == 1)

        let other = TestPublisher<Int, Never>()
        let some = TestRecorder<Bool, any Error>()
        other.tryContains { try throwing(on: 2)($0) > 5 }.subscribe(some)
        other.send(1)
        other.send(2)
        other.send(9)
        #expect(some.testErrorEvents == [.failure(.boom)])
        #expect(other.cancelCount == 1)
    }

    @Test func tryVariantsWithoutAnErrorBehaveAsTheOthers() {
        let all = TestRecorder<Bool, any Error>()
        AnyPublisher([1, 2].publisher).tryAllSatisfy { $0 > 1 }.subscribe(all)
        #expect(all.testErrorEvents == [.value(false), .finished])
        let some = TestRecorder<Bool, any Error>()
        AnyPublisher([1, 2].publisher).tryContains { $0 > 1 }.subscribe(some)
        #expect(some.testErrorEvents == [.value(true), .finished])
        let failing = PassthroughSubject<Int, TestError>()
        let failed = TestRecorder<Bool, any Error>()
        failing.tryContains { $0 > 1 }.subscribe(failed)
        failing.send(completion: .failure(.other))
        #expect(failed.testErrorEvents == [.failure(.other)])
    }

    @Test func subscriptionsAreNamedAsCombineNamesThem() {
        let subject = PassthroughSubject<Int, Never>()
        #expect(subscriptionName(of: subject.allSatisfy { $0 > 0 }) == "AllSatisfy")
        #expect(subscriptionName(of: subject.tryAllSatisfy { $0 > 0 }) == "TryAllSatisfy")
        #expect(subscriptionName(of: subject.contains(1)) == "Contains")
        #expect(subscriptionName(of: subject.contains { $0 > 0 }) == "ContainsWhere")
        #expect(subscriptionName(of: subject.tryContains { $0 > 0 }) == "TryContainsWhere")
    }
}
