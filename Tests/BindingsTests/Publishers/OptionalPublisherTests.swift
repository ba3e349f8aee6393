import BindingsTestSupport
import Testing
import Bindings

@Suite("Publishers: Optional.Publisher")
struct PublishersOptionalPublisherTests {
    @Test func publishesTheValueOnTheFirstRequestThenFinishes() {
        let publisher: Optional<Int>.Publisher = Optional(3).publisher
        #expect(publisher.output == 3)
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(3), .finished])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(3), .finished])
        #expect(recorder.violations.isEmpty)
    }

    @Test func nilFinishesAtOnceWithoutDemand() {
        let publisher: Optional<Int>.Publisher = Int?.none.publisher
        #expect(publisher.output == nil)
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func eachSubscriberGetsTheValue() {
        let publisher = Optional<String>.Publisher("a")
        let first = TestRecorder<String, Never>(recordsSubscription: true)
        let second = TestRecorder<String, Never>(recordsSubscription: true)
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.events == [.subscription, .value("a"), .finished])
        #expect(second.events == [.subscription, .value("a"), .finished])
    }

    @Test func nothingAfterCancel() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true, releasesSubscription: [])
        Optional(1).publisher.subscribe(recorder)
        recorder.cancel()
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func equatableByOutput() {
        #expect(Optional(1).publisher == Optional<Int>.Publisher(1))
        #expect(Optional(1).publisher != Optional<Int>.Publisher(2))
        #expect(Optional(1).publisher != Optional<Int>.Publisher(nil))
        #expect(Int?.none.publisher == Optional<Int>.Publisher(nil))
    }

    @Test func mapReturnsAnOptionalPublisher() {
        let mapped: Optional<String>.Publisher = Optional(1).publisher.map { "#\($0)" }
        let recorder = TestRecorder<String, Never>(initialDemand: .max(1))
        mapped.subscribe(recorder)
        #expect(recorder.events == [.value("#1"), .finished])
        let empty: Optional<String>.Publisher = Int?.none.publisher.map { "#\($0)" }
        #expect(empty.output == nil)
    }

    @Test func theTransformRunsOnceWhenTheOperatorIsApplied() {
        let calls = Counter()
        let mapped = Optional(2).publisher.map { value -> Int in
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
        #expect(calls.value == 1)
    }

    @Test func filterKeepsOrDropsTheValue() {
        let kept: Optional<Int>.Publisher = Optional(4).publisher.filter { $0.isMultiple(of: 2) }
        let dropped: Optional<Int>.Publisher = Optional(3).publisher.filter { $0.isMultiple(of: 2) }
        let keptRecorder = TestRecorder<Int, Never>()
        let droppedRecorder = TestRecorder<Int, Never>()
        kept.subscribe(keptRecorder)
        dropped.subscribe(droppedRecorder)
        #expect(keptRecorder.events == [.value(4), .finished])
        #expect(droppedRecorder.events == [.finished])
    }

    @Test func compactMapKeepsTheNonNilResult() {
        let parsed: Optional<Int>.Publisher = Optional("7").publisher.compactMap { Int($0) }
        let unparsed: Optional<Int>.Publisher = Optional("x").publisher.compactMap { Int($0) }
        #expect(parsed.output == 7)
        #expect(unparsed.output == nil)
        let recorder = TestRecorder<Int, Never>()
        parsed.subscribe(recorder)
        #expect(recorder.events == [.value(7), .finished])
    }

    @Test func dropFirstAndPrefixCountTheOneValue() {
        let dropNone: Optional<Int>.Publisher = Optional(1).publisher.dropFirst(0)
        let dropOne: Optional<Int>.Publisher = Optional(1).publisher.dropFirst()
        let prefixNone: Optional<Int>.Publisher = Optional(1).publisher.prefix(0)
        let prefixTwo: Optional<Int>.Publisher = Optional(1).publisher.prefix(2)
        // Typed first: `output` is also the name of the `output(at:)` and `output(in:)` operators.
        let outputs: [Int?] = [dropNone.output, dropOne.output, prefixNone.output, prefixTwo.output]
        #expect(outputs == [1, nil, nil, 1])
        let recorder = TestRecorder<Int, Never>()
        dropOne.subscribe(recorder)
        #expect(recorder.events == [.finished])
    }

    @Test func removeDuplicatesAndScanReturnOptionalPublishers() {
        let unique: Optional<Int>.Publisher = Optional(5).publisher.removeDuplicates()
        let uniqueBy: Optional<Int>.Publisher = Optional(5).publisher.removeDuplicates { _, _ in true }
        let scanned: Optional<Int>.Publisher = Optional(5).publisher.scan(10, +)
        #expect([unique.output, uniqueBy.output, scanned.output] == [5, 5, 15])
        let recorder = TestRecorder<Int, Never>()
        scanned.subscribe(recorder)
        #expect(recorder.events == [.value(15), .finished])
    }

    @Test func otherOperatorsStillBuildTheirPublishers() {
        // Operators that Combine does not specialize keep the general publisher.
        let merged: Publishers.Merge<Optional<Int>.Publisher, Just<Int>> = Optional(1).publisher.merge(with: Just(2))
        let recorder = TestRecorder<Int, Never>()
        merged.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }
}
