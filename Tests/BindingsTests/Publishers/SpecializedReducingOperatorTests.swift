import BindingsTestSupport
import Testing
import Bindings

/// A failure conversion to `TestError.other` (generic, so that it can be written for
/// `Never` without an unreachable body).
private func converting<F: Error>(_ failureType: F.Type) -> (F) -> TestError {
    { _ in .other }
}

/// The events `publisher` gives a subscriber that asks for everything.
private func events<P: Publisher>(of publisher: P) -> [RecordedEvent<P.Output, P.Failure>] {
    let recorder = TestRecorder<P.Output, P.Failure>()
    publisher.subscribe(recorder)
    return recorder.events
}

/// The events of a publisher that fails with `any Error`, with `TestError` failures.
private func testErrorEvents<P: Publisher>(of publisher: P) -> [RecordedEvent<P.Output, TestError>]
where P.Failure == any Error {
    let recorder = TestRecorder<P.Output, any Error>()
    publisher.subscribe(recorder)
    return recorder.testErrorEvents
}

@Suite("Publishers: Just's specializations of the reducing, try and error operators")
struct PublishersJustReducingTests {
    @Test func reducingOperatorsReturnJusts() {
        let minimum: Just<Int> = Just(3).min()
        let maximum: Just<Int> = Just(3).max(by: <)
        let contained: Just<Bool> = Just(3).contains(3)
        let containedWhere: Just<Bool> = Just(3).contains { $0 > 5 }
        let satisfied: Just<Bool> = Just(3).allSatisfy { $0 > 1 }
        let collected: Just<[Int]> = Just(3).collect()
        let counted: Just<Int> = Just("a").count()
        let first: Just<Int> = Just(3).first()
        let last: Just<Int> = Just(3).last()
        let replaced: Just<Int> = Just(3).replaceError(with: 0)
        let notEmpty: Just<Int> = Just(3).replaceEmpty(with: 0)
        // Typed first: `output` is also the name of the `output(at:)` and `output(in:)` operators.
        let outputs: [Int] = [minimum.output, maximum.output, first.output, last.output, replaced.output, notEmpty.output]
        let answers: [Bool] = [contained.output, containedWhere.output, satisfied.output]
        #expect(outputs == [3, 3, 3, 3, 3, 3])
        #expect(answers == [true, false, true])
        #expect(collected.output == [3])
        #expect(counted.output == 1)
        #expect(events(of: collected) == [.value([3]), .finished])
    }

    @Test func selectingOperatorsReturnOptionalPublishers() {
        let dropped: Optional<Int>.Publisher = Just(3).drop { $0 > 1 }
        let kept: Optional<Int>.Publisher = Just(3).drop { $0 > 5 }
        let firstMatch: Optional<Int>.Publisher = Just(3).first { $0 > 1 }
        let lastMatch: Optional<Int>.Publisher = Just(3).last { $0 > 5 }
        let prefixed: Optional<Int>.Publisher = Just(3).prefix { $0 > 1 }
        let atZero: Optional<Int>.Publisher = Just(3).output(at: 0)
        let atOne: Optional<Int>.Publisher = Just(3).output(at: 1)
        let inRange: Optional<Int>.Publisher = Just(3).output(in: 0...2)
        let fromOne: Optional<Int>.Publisher = Just(3).output(in: 1...)
        // As in Combine, a range that starts at 0 publishes the value even when empty.
        let emptyAtZero: Optional<Int>.Publisher = Just(3).output(in: 0..<0)
        let outputs: [Int?] = [
            dropped.output, kept.output, firstMatch.output, lastMatch.output, prefixed.output, atZero.output,
            atOne.output, inRange.output, fromOne.output, emptyAtZero.output,
        ]
        #expect(outputs == [nil, 3, 3, nil, 3, 3, nil, 3, nil, 3])
    }

    @Test func tryOperatorsReturnResultPublishers() {
        let mapped: Result<String, any Error>.Publisher = Just(3).tryMap { "\($0)" }
        let failedMap: Result<Int, any Error>.Publisher = Just(3).tryMap(throwing(on: 3))
        let satisfied: Result<Bool, any Error>.Publisher = Just(3).tryAllSatisfy { $0 > 1 }
        let contained: Result<Bool, any Error>.Publisher = Just(3).tryContains { try throwing(on: 3)($0) > 1 }
        let reduced: Result<Int, any Error>.Publisher = Just(3).tryReduce(10, +)
        let scanned: Result<Int, any Error>.Publisher = Just(3).tryScan(10) { _, _ in throw TestError.other }
        #expect(testErrorEvents(of: mapped) == [.value("3"), .finished])
        #expect(testErrorEvents(of: failedMap) == [.failure(.boom)])
        #expect(testErrorEvents(of: satisfied) == [.value(true), .finished])
        #expect(testErrorEvents(of: contained) == [.failure(.boom)])
        #expect(testErrorEvents(of: reduced) == [.value(13), .finished])
        #expect(testErrorEvents(of: scanned) == [.failure(.other)])
    }

    @Test func tryRemoveDuplicatesCallsThePredicateOnceWithTheValueTwice() {
        let calls = LockedLog<[Int]>()
        let unique: Result<Int, any Error>.Publisher = Just(3).tryRemoveDuplicates { lhs, rhs in
            calls.append([lhs, rhs])
            return true
        }
        #expect(calls.items == [[3, 3]])
        #expect(testErrorEvents(of: unique) == [.value(3), .finished])
        let failing: Result<Int, any Error>.Publisher = Just(3).tryRemoveDuplicates { _, _ in throw TestError.boom }
        #expect(testErrorEvents(of: failing) == [.failure(.boom)])
    }

    @Test func reduceMapErrorAndIgnoreOutput() {
        let reduced: Result<Int, Never>.Publisher = Just(3).reduce(10, +)
        let retyped: Result<Int, TestError>.Publisher = Just(3).mapError(converting(Never.self))
        let ignored: Empty<Int, Never> = Just(3).ignoreOutput()
        #expect(reduced.result == .success(13))
        #expect(retyped.result == .success(3))
        #expect(events(of: ignored) == [.finished])
    }
}

@Suite("Publishers: Optional.Publisher's specializations of the reducing and error operators")
struct PublishersOptionalReducingTests {
    @Test func aValueIsReducedAsOneElement() {
        let some = Optional(3).publisher
        let counted: Optional<Int>.Publisher = some.count()
        let contained: Optional<Bool>.Publisher = some.contains(3)
        let containedWhere: Optional<Bool>.Publisher = some.contains { $0 > 5 }
        let satisfied: Optional<Bool>.Publisher = some.allSatisfy { $0 > 1 }
        let collected: Optional<[Int]>.Publisher = some.collect()
        let reduced: Optional<Int>.Publisher = some.reduce(10, +)
        let minimum: Optional<Int>.Publisher = some.min()
        let maximum: Optional<Int>.Publisher = some.max(by: <)
        let replaced: Just<Int> = some.replaceEmpty(with: 0)
        let counts: [Int?] = [counted.output, reduced.output, minimum.output, maximum.output]
        #expect(counts == [1, 13, 3, 3])
        let answers: [Bool?] = [contained.output, containedWhere.output, satisfied.output]
        #expect(answers == [true, false, true])
        #expect(collected.output == [3])
        #expect(replaced.output == 3)
    }

    @Test func noValueGivesNothingExceptForCollectAndReplaceEmpty() {
        let none = Int?.none.publisher
        let counts: [Int?] = [none.count().output, none.reduce(10, +).output, none.first().output, none.last().output]
        #expect(counts == [nil, nil, nil, nil])
        let answers: [Bool?] = [none.contains(3).output, none.allSatisfy { _ in true }.output]
        #expect(answers == [nil, nil])
        #expect(none.collect().output == [])
        #expect(none.replaceEmpty(with: 7).output == 7)
        #expect(events(of: none.count()) == [.finished])
        #expect(events(of: none.collect()) == [.value([]), .finished])
    }

    @Test func selectingOperators() {
        let some = Optional(3).publisher
        let outputs: [Int?] = [
            some.drop { $0 > 1 }.output, some.first { $0 > 1 }.output, some.last { $0 > 5 }.output,
            some.prefix { $0 > 1 }.output, some.output(at: 0).output, some.output(at: 2).output,
            some.output(in: 0..<1).output, some.output(in: 0..<0).output, some.replaceError(with: 0).output,
        ]
        #expect(outputs == [nil, 3, nil, 3, 3, nil, 3, nil, 3])
        let ignored: Empty<Int, Never> = some.ignoreOutput()
        #expect(events(of: ignored) == [.finished])
    }
}

@Suite("Publishers: Result.Publisher's specializations of the reducing, try and error operators")
struct PublishersResultReducingTests {
    private let success = Result<Int, TestError>.success(3).publisher
    private let failure = Result<Int, TestError>.failure(.boom).publisher

    @Test func reducingOperatorsMapTheValueAndKeepTheFailure() {
        let counted: Result<Int, TestError>.Publisher = success.count()
        let contained: Result<Bool, TestError>.Publisher = success.contains(3)
        let satisfied: Result<Bool, TestError>.Publisher = success.allSatisfy { $0 > 5 }
        let collected: Result<[Int], TestError>.Publisher = success.collect()
        let reduced: Result<Int, TestError>.Publisher = success.reduce(10, +)
        let minimum: Result<Int, TestError>.Publisher = success.min()
        let first: Result<Int, TestError>.Publisher = success.first()
        #expect(counted.result == .success(1))
        #expect(contained.result == .success(true))
        #expect(satisfied.result == .success(false))
        #expect(collected.result == .success([3]))
        #expect(reduced.result == .success(13))
        #expect(minimum.result == .success(3))
        #expect(first.result == .success(3))
        #expect(failure.count().result == .failure(.boom))
        #expect(failure.contains { $0 > 1 }.result == .failure(.boom))
        #expect(events(of: failure.collect()) == [.failure(.boom)])
    }

    @Test func tryOperatorsFailWithTheFailureOrTheThrownError() {
        let mapped: Result<String, any Error>.Publisher = success.tryMap { "\($0)" }
        let thrown: Result<Int, any Error>.Publisher = success.tryMap(throwing(on: 3))
        let failed: Result<Int, any Error>.Publisher = failure.tryMap { $0 }
        #expect(testErrorEvents(of: mapped) == [.value("3"), .finished])
        #expect(testErrorEvents(of: thrown) == [.failure(.boom)])
        #expect(testErrorEvents(of: failed) == [.failure(.boom)])
        #expect(testErrorEvents(of: success.tryReduce(1, +)) == [.value(4), .finished])
        #expect(testErrorEvents(of: success.tryScan(1) { _, _ in throw TestError.other }) == [.failure(.other)])
        #expect(testErrorEvents(of: success.tryAllSatisfy { $0 > 1 }) == [.value(true), .finished])
        #expect(testErrorEvents(of: failure.tryContains { $0 > 1 }) == [.failure(.boom)])
    }

    @Test func tryMinMaxAndRemoveDuplicatesCallTheirClosureOnceWithTheValueTwice() {
        let calls = LockedLog<[Int]>()
        let minimum: Result<Int, any Error>.Publisher = success.tryMin { calls.append([$0, $1]); return true }
        let maximum: Result<Int, any Error>.Publisher = success.tryMax { calls.append([$0, $1]); return false }
        let unique: Result<Int, any Error>.Publisher = success.tryRemoveDuplicates { calls.append([$0, $1]); return true }
        #expect(calls.items == [[3, 3], [3, 3], [3, 3]])
        #expect(testErrorEvents(of: minimum) == [.value(3), .finished])
        #expect(testErrorEvents(of: maximum) == [.value(3), .finished])
        #expect(testErrorEvents(of: unique) == [.value(3), .finished])
        #expect(testErrorEvents(of: success.tryMax { _, _ in throw TestError.other }) == [.failure(.other)])
    }

    @Test func errorOperators() {
        let converted: Result<Int, TestError>.Publisher = failure.mapError { _ in .other }
        let replaced: Result<Int, Never>.Publisher = failure.replaceError(with: 0)
        let kept: Result<Int, Never>.Publisher = success.replaceError(with: 0)
        let notEmpty: Result<Int, TestError>.Publisher = failure.replaceEmpty(with: 0)
        #expect(converted.result == .failure(.other))
        #expect(replaced.result == .success(0))
        #expect(kept.result == .success(3))
        #expect(notEmpty.result == .failure(.boom))
    }

    @Test func ignoreOutputIsEmptyEvenForAFailure() {
        let ignored: Empty<Int, TestError> = failure.ignoreOutput()
        #expect(events(of: ignored) == [.finished])
    }
}

@Suite("Publishers: Publishers.Sequence's specializations of the reducing, try and selecting operators")
struct PublishersSequenceReducingTests {
    @Test func countIsAJustForCollectionsThatCannotFailAndAResultOtherwise() {
        let just: Just<Int> = [1, 2, 3].publisher.count()
        let result: Result<Int, Never>.Publisher = [1, 2].publisher.count()
        let failable: Result<Int, TestError>.Publisher = [1, 2].publisher.setFailureType(to: TestError.self).count()
        let set: Result<Int, Never>.Publisher = Set([1, 2]).publisher.count()
        #expect(just.output == 3)
        #expect(result.result == .success(2))
        #expect(failable.result == .success(2))
        #expect(set.result == .success(2))
        #expect(events(of: result) == [.value(2), .finished])
    }

    @Test func reducingOperatorsReturnResultPublishers() {
        let numbers = [3, 1, 2].publisher
        let reduced: Result<Int, Never>.Publisher = numbers.reduce(0, +)
        let collected: Result<[Int], Never>.Publisher = numbers.collect()
        let contained: Result<Bool, Never>.Publisher = numbers.contains(2)
        let containedWhere: Result<Bool, Never>.Publisher = numbers.contains { $0 > 5 }
        let satisfied: Result<Bool, Never>.Publisher = numbers.allSatisfy { $0 > 0 }
        #expect(reduced.result == .success(6))
        #expect(collected.result == .success([3, 1, 2]))
        #expect(contained.result == .success(true))
        #expect(containedWhere.result == .success(false))
        #expect(satisfied.result == .success(true))
        #expect(testErrorEvents(of: numbers.tryReduce(0) { try throwing(on: 2)($1) + $0 }) == [.failure(.boom)])
        #expect(testErrorEvents(of: numbers.tryAllSatisfy { $0 > 0 }) == [.value(true), .finished])
        #expect(testErrorEvents(of: numbers.tryContains { try throwing(on: 1)($0) > 5 }) == [.failure(.boom)])
    }

    @Test func minMaxFirstLastAndOutputReturnOptionalPublishers() {
        let numbers = [3, 1, 2, 1].publisher
        let minimum: Optional<Int>.Publisher = numbers.min()
        let maximum: Optional<Int>.Publisher = numbers.max()
        let shortest: Optional<String>.Publisher = ["bb", "a", "ccc"].publisher.min { $0.count < $1.count }
        let longest: Optional<String>.Publisher = ["bb", "a", "ccc"].publisher.max { $0.count < $1.count }
        let first: Optional<Int>.Publisher = numbers.first()
        let firstMatch: Optional<Int>.Publisher = numbers.first { $0 < 3 }
        let last: Optional<Int>.Publisher = numbers.last()
        let lastMatch: Optional<Int>.Publisher = numbers.last { $0 > 1 }
        let atTwo: Optional<Int>.Publisher = numbers.output(at: 2)
        let atNine: Optional<Int>.Publisher = numbers.output(at: 9)
        let outputs: [Int?] = [
            minimum.output, maximum.output, first.output, firstMatch.output, last.output, lastMatch.output,
            atTwo.output, atNine.output,
        ]
        #expect(outputs == [1, 3, 3, 1, 1, 2, 2, nil])
        #expect(shortest.output == "a")
        #expect(longest.output == "ccc")
        let emptyMinimum: Optional<Int>.Publisher = [Int]().publisher.min()
        #expect(events(of: emptyMinimum) == [.finished])
    }

    @Test func selectingOperatorsReturnSequences() {
        let numbers = [1, 2, 5, 1].publisher
        let dropped: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = numbers.drop { $0 < 3 }
        let prefixed: Publishers.Sequence<[Int], Never> = numbers.prefix { $0 < 3 }
        let within: Publishers.Sequence<[Int], Never> = numbers.output(in: 1..<3)
        let clamped: Publishers.Sequence<[Int], Never> = numbers.output(in: 2..<10)
        #expect(Array(dropped.sequence) == [5, 1])
        #expect(prefixed.sequence == [1, 2])
        #expect(within.sequence == [2, 5])
        #expect(clamped.sequence == [5, 1])
        #expect(events(of: dropped) == [.value(5), .value(1), .finished])
        let ignored: Empty<Int, Never> = numbers.ignoreOutput()
        #expect(events(of: ignored) == [.finished])
    }

    @Test func aFailableSequenceStillComputesAtOnce() {
        let numbers = [1, 2].publisher.setFailureType(to: TestError.self)
        let reduced: Result<Int, TestError>.Publisher = numbers.reduce(0, +)
        let within: Publishers.Sequence<[Int], TestError> = numbers.output(in: 0..<1)
        // No Optional.Publisher (it cannot fail): these are the general operators.
        let first: Publishers.First<Publishers.Sequence<[Int], TestError>> = numbers.first()
        let minimum: Publishers.Comparison<Publishers.Sequence<[Int], TestError>> = numbers.min()
        #expect(reduced.result == .success(3))
        #expect(within.sequence == [1])
        #expect(events(of: first) == [.value(1), .finished])
        #expect(events(of: minimum) == [.value(1), .finished])
    }
}
