import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// The type name starts with "Operators" so that `swift test --filter Operators` selects it.
@Suite("Operators: zip")
struct OperatorsZipTests {
    typealias Pairs = TestRecorder<(Int, String), TestError>

    // Tuples are not `Equatable`: the tests compare each tuple as a string.
    private static func pair(_ tuple: (Int, String)) -> String { "\(tuple.0)\(tuple.1)" }

    @Test func pairsTheNthValueOfEachAsInCombinesExample() {
        let numbers = PassthroughSubject<Int, TestError>()
        let letters = PassthroughSubject<String, TestError>()
        let recorder = Pairs(releasesSubscription: [])
        let zipped: Publishers.Zip<PassthroughSubject<Int, TestError>, PassthroughSubject<String, TestError>> =
            numbers.zip(letters)
        zipped.subscribe(recorder)

        numbers.send(1)
        numbers.send(2)
        letters.send("A")
        #expect(recorder.events(Self.pair) == [.value("1A")])
        numbers.send(3)
        letters.send("B")
        #expect(recorder.events(Self.pair) == [.value("1A"), .value("2B")])
        letters.send("C")
        letters.send("D")   // waits for a fourth number
        #expect(recorder.events(Self.pair) == [.value("1A"), .value("2B"), .value("3C")])
        #expect(recorder.violations == [])
        recorder.cancel()   // the stream never ends: let go of the recorder
    }

    @Test func transformVariantsAreMapsOfTheZip() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        let two = TestRecorder<Int, Never>(releasesSubscription: [])
        let three = TestRecorder<Int, Never>(releasesSubscription: [])
        let four = TestRecorder<Int, Never>(releasesSubscription: [])
        let mapped2: Publishers.Map<Publishers.Zip<PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>>, Int> =
            a.zip(b) { $0 * 10 + $1 }
        mapped2.subscribe(two)
        a.zip(b, c) { $0 * 100 + $1 * 10 + $2 }.subscribe(three)
        a.zip(b, c, d) { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }.subscribe(four)

        a.send(1)
        b.send(2)
        c.send(3)
        d.send(4)
        a.send(5)
        b.send(6)
        #expect(two.values == [12, 56])
        #expect(three.values == [123])
        #expect(four.values == [1234])
        a.send(completion: .finished)
        #expect(two.events == [.value(12), .value(56), .finished])
        #expect(three.events == [.value(123)])   // a's 5 may still pair, when c sends
        #expect(four.events == [.value(1234)])
        c.send(7)
        d.send(8)
        #expect(three.events == [.value(123), .value(567), .finished])
        #expect(four.events == [.value(1234), .value(5678), .finished])
    }

    @Test func zip3AndZip4PairTheNthValues() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let c = PassthroughSubject<Double, Never>()
        let d = PassthroughSubject<Bool, Never>()
        let three = TestRecorder<(Int, String, Double), Never>(releasesSubscription: [])
        let four = TestRecorder<(Int, String, Double, Bool), Never>(releasesSubscription: [])
        let zip3: Publishers.Zip3<PassthroughSubject<Int, Never>, PassthroughSubject<String, Never>,
            PassthroughSubject<Double, Never>> = a.zip(b, c)
        zip3.subscribe(three)
        Publishers.Zip4(a, b, c, d).subscribe(four)

        a.send(1)
        a.send(2)
        b.send("x")
        c.send(0.5)
        d.send(true)
        b.send("y")
        c.send(1.5)
        #expect(three.values { "\($0)\($1)\($2)" } == ["1x0.5", "2y1.5"])
        #expect(four.values { "\($0)\($1)\($2)\($3)" } == ["1x0.5true"])
        d.send(completion: .finished)
        #expect(four.events.count == 2)
        #expect(four.events.last.map { "\($0)" } == "finished")
        #expect(three.events.count == 2)   // d is not one of its upstreams
        three.cancel()
        four.cancel()
    }

    @Test func synchronousUpstreamsPairAndFinish() {
        let recorder = TestRecorder<(Int, String), Never>(releasesSubscription: [])
        [1, 2, 3].publisher.zip(["a", "b"].publisher).subscribe(recorder)
        #expect(recorder.events(Self.pairNever) == [.value("1a"), .value("2b"), .finished])

        let waiting = TestRecorder<(Int, String), Never>(initialDemand: .none, releasesSubscription: [])
        [1, 2, 3].publisher.zip(["a", "b", "c"].publisher).subscribe(waiting)
        #expect(waiting.events(Self.pairNever) == [])
        waiting.request(.max(2))
        #expect(waiting.events(Self.pairNever) == [.value("1a"), .value("2b")])
        waiting.request(.max(1))
        #expect(waiting.events(Self.pairNever) == [.value("1a"), .value("2b"), .value("3c"), .finished])
        #expect(waiting.violations == [])
    }

    private static func pairNever(_ tuple: (Int, String)) -> String { "\(tuple.0)\(tuple.1)" }

    @Test func finishesWhenAnUpstreamFinishesWithNothingLeftToPair() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<String, TestError>()
        let recorder = Pairs(releasesSubscription: [])
        a.zip(b).subscribe(recorder)

        a.send(1)
        a.send(2)
        a.send(completion: .finished)   // 1 and 2 can still pair
        #expect(recorder.events(Self.pair) == [])
        b.send("A")
        #expect(recorder.events(Self.pair) == [.value("1A")])
        b.send("B")   // a's last value paired: nothing more can come
        #expect(recorder.events(Self.pair) == [.value("1A"), .value("2B"), .finished])
        b.send("C")
        b.send(completion: .finished)
        #expect(recorder.events.count == 3)
    }

    @Test func anUpstreamFinishingEmptyFinishesAtOnceAndCancelsTheOther() {
        let a = TestPublisher<Int, TestError>()
        let b = TestPublisher<String, TestError>()
        let recorder = Pairs(releasesSubscription: [])
        a.zip(b).subscribe(recorder)

        b.send("A")
        b.send("B")
        a.send(completion: .finished)   // no value of a: "A" and "B" can never pair
        #expect(recorder.events(Self.pair) == [.finished])
        #expect(b.cancelCount == 1)
        #expect(a.cancelCount == 0)
        a.send(1)   // a careless upstream sends after its completion: dropped
        b.send("C")
        #expect(recorder.events(Self.pair) == [.finished])
        #expect(recorder.violations == [])
    }

    @Test func failsAtOnceWithTheFirstFailureDroppingWhatWaits() {
        let a = TestPublisher<Int, TestError>()
        let b = TestPublisher<String, TestError>()
        let recorder = Pairs(releasesSubscription: [])
        a.zip(b).subscribe(recorder)

        a.send(1)
        b.send("A")
        a.send(2)
        b.send(completion: .failure(.boom))
        #expect(recorder.events(Self.pair) == [.value("1A"), .failure(.boom)])
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 0)
        b.send("B")
        a.send(completion: .failure(.other))
        #expect(recorder.events(Self.pair) == [.value("1A"), .failure(.boom)])

        // Each upstream's failure is the zip's, whichever comes first.
        let c = PassthroughSubject<Int, TestError>()
        let d = PassthroughSubject<String, TestError>()
        let other = Pairs(releasesSubscription: [])
        c.zip(d).subscribe(other)
        c.send(completion: .failure(.other))
        #expect(other.events(Self.pair) == [.failure(.other)])
    }

    @Test func demandIsForwardedToEveryUpstreamAndEachTupleUsesOneUnit() {
        let a = TestPublisher<Int, TestError>()
        let b = TestPublisher<String, TestError>()
        let recorder = Pairs(initialDemand: .max(2), releasesSubscription: [])
        a.zip(b).subscribe(recorder)
        #expect(a.requests == [.max(2)])
        #expect(b.requests == [.max(2)])

        // Upstreams that ignore demand: their values wait, and only what was asked is delivered.
        for value in 1...4 { a.send(value) }
        for letter in ["A", "B", "C"] { b.send(letter) }
        #expect(recorder.events(Self.pair) == [.value("1A"), .value("2B")])
        recorder.request(.max(1))
        #expect(a.requests == [.max(2), .max(1)])
        #expect(b.requests == [.max(2), .max(1)])
        #expect(recorder.events(Self.pair) == [.value("1A"), .value("2B"), .value("3C")])
        #expect(recorder.violations == [])
        recorder.cancel()
    }

    @Test func demandReturnedFromReceiveIsForwardedToEveryUpstream() {
        let a = TestPublisher<Int, TestError>()
        let b = TestPublisher<String, TestError>()
        let recorder = Pairs(initialDemand: .max(1), demandPerValue: .max(2), releasesSubscription: [])
        a.zip(b).subscribe(recorder)

        a.send(1)
        #expect(b.send("A") == .none)   // the demand goes through the subscriptions
        #expect(a.requests == [.max(1), .max(2)])
        #expect(b.requests == [.max(1), .max(2)])
        #expect(recorder.events(Self.pair) == [.value("1A")])
        recorder.cancel()
    }

    @Test func anUpstreamThatSubscribesLateIsAskedForEverythingRequestedSoFar() {
        let a = TestPublisher<Int, TestError>()
        let late = TestPublisher<String, TestError>(subscribesAtOnce: false)
        let recorder = Pairs(initialDemand: .max(1), releasesSubscription: [])
        a.zip(late).subscribe(recorder)
        recorder.request(.max(2))
        #expect(a.requests == [.max(1), .max(2)])
        late.attach()
        #expect(late.requests == [.max(3)])
        late.send("A")   // nothing to pair with yet
        a.send(1)
        #expect(recorder.events(Self.pair) == [.value("1A")])
        recorder.cancel()
    }

    @Test func cancelCancelsEveryUpstreamAndNothingFollows() {
        let a = TestPublisher<Int, TestError>()
        let b = TestPublisher<String, TestError>()
        let recorder = Pairs(releasesSubscription: [])
        a.zip(b).subscribe(recorder)

        a.send(1)
        b.send("A")
        a.send(2)
        recorder.cancel()
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
        b.send("B")
        a.send(completion: .finished)
        b.send(completion: .failure(.boom))
        recorder.request(.max(3))
        #expect(a.requests == [.unlimited])
        #expect(recorder.events(Self.pair) == [.value("1A")])
    }

    @Test func cancelFromInsideReceiveStopsAtOnce() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<String, TestError>()
        let recorder = Pairs(releasesSubscription: [])
        recorder.onValue = { _ in recorder.cancel() }
        a.zip(b).subscribe(recorder)
        a.send(1)
        a.send(2)
        b.send("A")
        b.send("B")   // cancelled by the first pair
        #expect(recorder.events(Self.pair) == [.value("1A")])
        recorder.onValue = nil   // the hook holds the recorder
    }

    @Test func reentrantSendsAreDeliveredAfterTheCurrentTupleNotInsideIt() {
        let a = TestPublisher<Int, TestError>()
        let b = TestPublisher<String, TestError>()
        let recorder = Pairs(releasesSubscription: [])
        var depth = 0
        var maxDepth = 0
        recorder.onValue = { tuple in
            depth += 1
            maxDepth = max(maxDepth, depth)
            if tuple.0 == 1 {
                // Straight into the zip (a TestPublisher calls it synchronously).
                a.send(2)
                b.send("B")
                a.send(completion: .finished)
            }
            depth -= 1
        }
        a.zip(b).subscribe(recorder)
        a.send(1)
        b.send("A")
        #expect(recorder.events(Self.pair) == [.value("1A"), .value("2B"), .finished])
        #expect(maxDepth == 1)
    }

    @Test func releasesItsSubscriberAtCompletionAndCancel() {
        weak var weakRecorder: Pairs?
        weak var weakSubscription: AnyObject?
        do {
            let a = PassthroughSubject<Int, TestError>()
            let b = PassthroughSubject<String, TestError>()
            let recorder = Pairs(releasesSubscription: [])
            weakRecorder = recorder
            a.zip(b).subscribe(recorder)
            weakSubscription = recorder.subscription as AnyObject
            a.send(1)
            a.send(completion: .finished)
            b.send("A")
            #expect(recorder.events(Self.pair) == [.value("1A"), .finished])
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)

        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<String, TestError>()
        do {
            let recorder = Pairs(releasesSubscription: [])
            weakRecorder = recorder
            a.zip(b).subscribe(recorder)
            a.send(1)   // buffered
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
    }

    @Test func bufferedValuesAreReleasedWhenPairedOrDropped() {
        let counter = LiveCounter()
        let a = PassthroughSubject<Canary, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        a.zip(b).map { $0.1 }.subscribe(recorder)
        a.send(Canary(counter))
        a.send(Canary(counter))
        #expect(counter.live == 2)
        b.send(1)
        #expect(counter.live == 1)   // paired and delivered: released
        recorder.cancel()
        #expect(counter.live == 0)   // dropped with the cancel
    }

    @Test func equatableWhenItsUpstreamsAre() {
        #expect(Publishers.Zip(Just(1), Just(2)) == Publishers.Zip(Just(1), Just(2)))
        #expect(Publishers.Zip3(Just(1), Just(2), Just(3)) != Publishers.Zip3(Just(1), Just(2), Just(4)))
        #expect(Publishers.Zip4(Just(1), Just(2), Just(3), Just(4)) == Publishers.Zip4(Just(1), Just(2), Just(3), Just(4)))
    }

    @Test func describesItselfAsCombinesZip() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<(Int, Int), Never>(releasesSubscription: [])
        subject.zip(subject).subscribe(recorder)
        #expect(recorder.subscription.map { String(describing: $0) } == "Zip")
        recorder.cancel()
    }

    @Test func upstreamsOnSeveralThreadsPairEveryValueOnceInOrder() {
        let count = 20_000
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let detector = OverlapDetector()
        var received: [[Int]] = []   // appended without a lock on purpose
        var completions = 0
        let cancellable = a.zip(b, c).sink(
            receiveCompletion: { _ in completions += 1 },
            receiveValue: { x, y, z in detector.watch { received.append([x, y, z]) } })
        runConcurrently([a, b, c].enumerated().map { index, subject in
            {
                for value in 0..<count { subject.send(value * 3 + index) }
                subject.send(completion: .finished)
            }
        })

        #expect(detector.overlaps == 0)
        #expect(completions == 1)
        #expect(received.count == count)
        #expect(received == (0..<count).map { [$0 * 3, $0 * 3 + 1, $0 * 3 + 2] })
        withExtendedLifetime(cancellable) {}
    }

    @Test func demandFromAnotherThreadWhileUpstreamsSendDeliversExactlyWhatWasAsked() {
        let count = 5_000
        // Upstreams that send whatever the demand: their values wait in the zip's buffers.
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let detector = OverlapDetector()
        let recorder = TestRecorder<(Int, Int), Never>(initialDemand: .none, releasesSubscription: [])
        recorder.onValue = { _ in detector.watch {} }
        a.zip(b).subscribe(recorder)
        runConcurrently([
            { for value in 0..<count { a.send(value) } },
            { for value in 0..<count { b.send(value) } },
            { for _ in 0..<(count / 2) { recorder.request(.max(1)) } },
        ])
        #expect(recorder.values.count == count / 2)   // exactly what was asked for
        recorder.request(.unlimited)
        #expect(recorder.values { [$0.0, $0.1] } == (0..<count).map { [$0, $0] })
        #expect(recorder.violations == [])
        #expect(detector.overlaps == 0)
        recorder.cancel()
    }
}
