import BindingsTestSupport
import Testing
import Bindings

@Suite("Publishers: Result.Publisher")
struct PublishersResultPublisherTests {
    @Test func successPublishesTheValueOnTheFirstRequestThenFinishes() {
        let publisher: Result<Int, TestError>.Publisher = Result<Int, TestError>.success(3).publisher
        #expect(publisher.result == .success(3))
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none, recordsSubscription: true)
        publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(3), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func failureFailsAtOnceWithoutDemand() {
        let publisher = Result<Int, TestError>.failure(.boom).publisher
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none, recordsSubscription: true)
        publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(.boom)])
    }

    @Test func initializersAndEquality() {
        let fromValue = Result<Int, TestError>.Publisher(1)
        let fromFailure = Result<Int, TestError>.Publisher(TestError.boom)
        let fromResult = Result<Int, TestError>.Publisher(.success(1))
        #expect(fromValue.result == .success(1))
        #expect(fromFailure.result == .failure(.boom))
        #expect(fromValue == fromResult)
        #expect(fromValue != fromFailure)
        #expect(fromFailure == Result<Int, TestError>.failure(.boom).publisher)
    }

    @Test func nothingAfterCancel() {
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none, recordsSubscription: true, releasesSubscription: [])
        Result<Int, TestError>.success(1).publisher.subscribe(recorder)
        recorder.cancel()
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func mapTransformsTheValueAndKeepsTheFailure() {
        let calls = Counter()
        let mapped: Result<String, TestError>.Publisher = Result<Int, TestError>.success(1).publisher.map {
            calls.increment()
            return "#\($0)"
        }
        let failed: Result<String, TestError>.Publisher = Result<Int, TestError>.failure(.other).publisher.map {
            calls.increment()
            return "#\($0)"
        }
        #expect(calls.value == 1)
        let recorder = TestRecorder<String, TestError>()
        let failedRecorder = TestRecorder<String, TestError>()
        mapped.subscribe(recorder)
        failed.subscribe(failedRecorder)
        #expect(recorder.events == [.value("#1"), .finished])
        #expect(failedRecorder.events == [.failure(.other)])
        #expect(calls.value == 1)
    }

    @Test func scanAndRemoveDuplicatesReturnResultPublishers() {
        let scanned: Result<Int, TestError>.Publisher = Result<Int, TestError>.success(2).publisher.scan(10, +)
        let unique: Result<Int, TestError>.Publisher = Result<Int, TestError>.success(2).publisher.removeDuplicates()
        let uniqueBy: Result<Int, TestError>.Publisher =
            Result<Int, TestError>.success(2).publisher.removeDuplicates { _, _ in true }
        #expect(scanned.result == .success(12))
        #expect(unique.result == .success(2))
        #expect(uniqueBy.result == .success(2))
        let recorder = TestRecorder<Int, TestError>()
        scanned.subscribe(recorder)
        #expect(recorder.events == [.value(12), .finished])
    }

    @Test func setFailureTypeOfANeverFailingResult() {
        let retyped: Result<Int, TestError>.Publisher = Result<Int, Never>.success(4).publisher
            .setFailureType(to: TestError.self)
        #expect(retyped.result == .success(4))
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(1))
        retyped.subscribe(recorder)
        #expect(recorder.events == [.value(4), .finished])
    }
}
