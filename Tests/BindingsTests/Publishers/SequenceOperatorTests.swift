import BindingsTestSupport
import Testing
import Bindings

@Suite("Publishers: operators on Publishers.Sequence return Publishers.Sequence")
struct PublishersSequenceOperatorTests {
    @Test func mapReturnsASequenceOfTheResults() {
        let mapped: Publishers.Sequence<[String], Never> = [1, 2, 3].publisher.map { "#\($0)" }
        #expect(mapped.sequence == ["#1", "#2", "#3"])
        let recorder = TestRecorder<String, Never>()
        mapped.subscribe(recorder)
        #expect(recorder.events == [.value("#1"), .value("#2"), .value("#3"), .finished])
    }

    @Test func theTransformRunsOnceForEachElementWhenApplied() {
        let calls = Counter()
        let mapped = (1...3).publisher.map { value -> Int in
            calls.increment()
            return value * 2
        }
        #expect(calls.value == 3)
        let first = TestRecorder<Int, Never>()
        let second = TestRecorder<Int, Never>()
        mapped.subscribe(first)
        mapped.subscribe(second)
        #expect(first.values == [2, 4, 6])
        #expect(second.values == [2, 4, 6])
        #expect(calls.value == 3)
    }

    @Test func filterAndCompactMapReturnArrays() {
        let filtered: Publishers.Sequence<[Int], Never> = (1...6).publisher.filter { $0.isMultiple(of: 2) }
        let parsed: Publishers.Sequence<[Int], Never> = ["1", "x", "3"].publisher.compactMap { Int($0) }
        #expect(filtered.sequence == [2, 4, 6])
        #expect(parsed.sequence == [1, 3])
    }

    @Test func dropFirstAndPrefixKeepTheSequenceLazy() {
        let dropped: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = [1, 2, 3].publisher.dropFirst()
        let prefixed: Publishers.Sequence<PrefixSequence<[Int]>, Never> = [1, 2, 3].publisher.prefix(2)
        #expect(Array(dropped.sequence) == [2, 3])
        #expect(Array(prefixed.sequence) == [1, 2])
        let recorder = TestRecorder<Int, Never>()
        dropped.dropFirst(0).subscribe(recorder)
        #expect(recorder.events == [.value(2), .value(3), .finished])
    }

    @Test func scanReturnsTheRunningResults() {
        let scanned: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.scan(0, +)
        #expect(scanned.sequence == [1, 3, 6])
    }

    @Test func removeDuplicatesDropsConsecutiveRepeats() {
        let unique: Publishers.Sequence<[Int], Never> = [1, 1, 2, 2, 1].publisher.removeDuplicates()
        #expect(unique.sequence == [1, 2, 1])
    }

    @Test func replaceNilKeepsTheOptionalElementType() {
        // Combine's quirk: on a sequence, replaceNil keeps `Int?` (the general operator
        // gives `Int`).
        let replaced: Publishers.Sequence<[Int?], Never> = [1, nil, 3].publisher.replaceNil(with: 0)
        #expect(replaced.sequence == [1, 0, 3])
        let recorder = TestRecorder<Int?, Never>()
        replaced.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(0), .value(3), .finished])
        let subject = PassthroughSubject<Int?, Never>()
        let unwrapped: Publishers.Map<PassthroughSubject<Int?, Never>, Int> = subject.replaceNil(with: 0)
        let unwrappedRecorder = TestRecorder<Int, Never>()
        unwrapped.subscribe(unwrappedRecorder)
        subject.send(nil)
        subject.send(5)
        #expect(unwrappedRecorder.events == [.value(0), .value(5)])
    }

    @Test func setFailureTypeChangesAnyFailureType() {
        let failable: Publishers.Sequence<[Int], TestError> = [1, 2].publisher.setFailureType(to: TestError.self)
        // Unlike the general operator, any declared failure can be changed.
        let other: Publishers.Sequence<[Int], CancellationError> = failable.setFailureType(to: CancellationError.self)
        #expect(other.sequence == [1, 2])
        let recorder = TestRecorder<Int, TestError>()
        failable.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    @Test func prependAndAppendJoinTheCollections() {
        let base = [3, 4].publisher
        let prepended: Publishers.Sequence<[Int], Never> = base.prepend(1, 2)
        let prependedSequence: Publishers.Sequence<[Int], Never> = base.prepend(1...2)
        let prependedPublisher: Publishers.Sequence<[Int], Never> = base.prepend([1, 2].publisher)
        let appended: Publishers.Sequence<[Int], Never> = base.append(5, 6)
        let appendedSequence: Publishers.Sequence<[Int], Never> = base.append(5...6)
        let appendedPublisher: Publishers.Sequence<[Int], Never> = base.append([5, 6].publisher)
        #expect(prepended.sequence == [1, 2, 3, 4])
        #expect(prependedSequence.sequence == [1, 2, 3, 4])
        #expect(prependedPublisher.sequence == [1, 2, 3, 4])
        #expect(appended.sequence == [3, 4, 5, 6])
        #expect(appendedSequence.sequence == [3, 4, 5, 6])
        #expect(appendedPublisher.sequence == [3, 4, 5, 6])
    }

    @Test func aSequenceThatCannotGrowConcatenatesInstead() {
        // A range is not a RangeReplaceableCollection: the general operators apply.
        let prepended: Publishers.Concatenate<Publishers.Sequence<[Int], Never>, Publishers.Sequence<ClosedRange<Int>, Never>> =
            (2...3).publisher.prepend(1)
        let appended: Publishers.Concatenate<Publishers.Sequence<ClosedRange<Int>, Never>, Publishers.Sequence<[Int], Never>> =
            (2...3).publisher.append(4)
        let first = TestRecorder<Int, Never>()
        let second = TestRecorder<Int, Never>()
        prepended.subscribe(first)
        appended.subscribe(second)
        #expect(first.events == [.value(1), .value(2), .value(3), .finished])
        #expect(second.events == [.value(2), .value(3), .value(4), .finished])
    }

    @Test func aSpecializedSequenceHonoursFiniteDemandAndCancel() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [])
        [1, 2, 3, 4].publisher.map { $0 * 10 }.subscribe(recorder)
        #expect(recorder.events == [.value(10)])
        recorder.request(.max(2))
        #expect(recorder.events == [.value(10), .value(20), .value(30)])
        recorder.cancel()
        recorder.request(.max(1))
        #expect(recorder.events == [.value(10), .value(20), .value(30)])
        #expect(recorder.violations.isEmpty)
    }
}
