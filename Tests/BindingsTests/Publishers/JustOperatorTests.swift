import BindingsTestSupport
import Testing
import Bindings

@Suite("Publishers: operators on Just return Just, Optional.Publisher, Result.Publisher or Sequence")
struct PublishersJustOperatorTests {
    @Test func mapReturnsAJust() {
        let mapped: Just<String> = Just(1).map(String.init)
        #expect(mapped.output == "1")
        let recorder = TestRecorder<String, Never>(initialDemand: .none, recordsSubscription: true)
        mapped.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value("1"), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func consecutiveMapsStayAJust() {
        let calls = Counter()
        let mapped: Just<Int> = Just(1).map { $0 + 1 }.map { value -> Int in
            calls.increment()
            return value * 10
        }
        #expect(calls.value == 1)
        let first = TestRecorder<Int, Never>()
        let second = TestRecorder<Int, Never>()
        mapped.subscribe(first)
        mapped.subscribe(second)
        #expect(first.events == [.value(20), .finished])
        #expect(second.events == [.value(20), .finished])
        #expect(calls.value == 1)   // run once, when applied
    }

    @Test func cancelBeforeTheRequestDeliversNothing() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true, releasesSubscription: [])
        Just(1).map { $0 * 2 }.subscribe(recorder)
        recorder.cancel()
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func filterReturnsAnOptionalPublisher() {
        let kept: Optional<Int>.Publisher = Just(6).filter { $0 > 5 }
        let dropped: Optional<Int>.Publisher = Just(3).filter { $0 > 5 }
        let keptRecorder = TestRecorder<Int, Never>()
        let droppedRecorder = TestRecorder<Int, Never>(initialDemand: .none)
        kept.subscribe(keptRecorder)
        dropped.subscribe(droppedRecorder)
        #expect(keptRecorder.events == [.value(6), .finished])
        #expect(droppedRecorder.events == [.finished])
    }

    @Test func compactMapReturnsAnOptionalPublisher() {
        let parsed: Optional<Int>.Publisher = Just("7").compactMap { Int($0) }
        let unparsed: Optional<Int>.Publisher = Just("x").compactMap { Int($0) }
        #expect(parsed.output == 7)
        #expect(unparsed.output == nil)
    }

    @Test func dropFirstAndPrefixReturnOptionalPublishers() {
        let dropOne: Optional<Int>.Publisher = Just(1).dropFirst()
        let dropNone: Optional<Int>.Publisher = Just(1).dropFirst(0)
        let prefixNone: Optional<Int>.Publisher = Just(1).prefix(0)
        let prefixOne: Optional<Int>.Publisher = Just(1).prefix(1)
        // Typed first: `output` is also the name of the `output(at:)` and `output(in:)` operators.
        let outputs: [Int?] = [dropOne.output, dropNone.output, prefixNone.output, prefixOne.output]
        #expect(outputs == [nil, 1, nil, 1])
        let recorder = TestRecorder<Int, Never>()
        dropOne.subscribe(recorder)
        #expect(recorder.events == [.finished])
    }

    @Test func removeDuplicatesReturnsTheJust() {
        let unique: Just<Int> = Just(2).removeDuplicates()
        let uniqueBy: Just<Int> = Just(2).removeDuplicates { _, _ in true }
        #expect(unique == Just(2))
        #expect(uniqueBy == Just(2))
    }

    @Test func scanAndSetFailureTypeReturnResultPublishers() {
        let scanned: Result<Int, Never>.Publisher = Just(2).scan(10, +)
        let retyped: Result<Int, TestError>.Publisher = Just(2).setFailureType(to: TestError.self)
        #expect(scanned.result == .success(12))
        #expect(retyped.result == .success(2))
        let recorder = TestRecorder<Int, TestError>()
        retyped.subscribe(recorder)
        #expect(recorder.events == [.value(2), .finished])
    }

    @Test func prependAndAppendReturnSequences() {
        let prepended: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2)
        let prependedSequence: Publishers.Sequence<[Int], Never> = Just(3).prepend(1...2)
        let appended: Publishers.Sequence<[Int], Never> = Just(1).append(2, 3)
        let appendedSequence: Publishers.Sequence<[Int], Never> = Just(1).append(2...3)
        #expect(prepended.sequence == [1, 2, 3])
        #expect(prependedSequence.sequence == [1, 2, 3])
        #expect(appended.sequence == [1, 2, 3])
        #expect(appendedSequence.sequence == [1, 2, 3])
    }

    @Test func aPrependedJustHonoursFiniteDemand() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1))
        Just(3).prepend(1, 2).subscribe(recorder)
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])
        #expect(recorder.violations.isEmpty)
    }
}
