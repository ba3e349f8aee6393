import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// The type name starts with "Operators" so that `swift test --filter Operators` selects it.
@Suite("Operators: merge")
struct OperatorsMergeTests {
    @Test func interleavesValuesAndFinishesWhenBothHaveFinished() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        let merged: Publishers.Merge<PassthroughSubject<Int, Never>, AnyPublisher<Int, Never>> =
            a.merge(with: b.eraseToAnyPublisher())
        merged.subscribe(recorder)

        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .value(3)])
        b.send(4)
        b.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .value(4), .finished])
    }

    @Test func twoPublishersOfOneTypeMergeIntoMergeManyAsInCombine() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        let merged: Publishers.MergeMany<PassthroughSubject<Int, Never>> = a.merge(with: b)
        #expect(merged.publishers.count == 2)
        merged.subscribe(recorder)

        b.send(1)
        a.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    @Test func mergeManyMergesEveryPublisher() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        Publishers.MergeMany(subjects[0], subjects[1], subjects[2])
            .merge(with: subjects[3])
            .subscribe(recorder)

        for (index, subject) in subjects.enumerated().reversed() { subject.send(index) }
        for subject in subjects.dropLast() { subject.send(completion: .finished) }
        #expect(recorder.events == [.value(3), .value(2), .value(1), .value(0)])
        subjects[3].send(completion: .finished)
        #expect(recorder.events == [.value(3), .value(2), .value(1), .value(0), .finished])

        let fromSequence = TestRecorder<Int, Never>(releasesSubscription: [])
        Publishers.MergeMany(subjects.map { $0.eraseToAnyPublisher() }).subscribe(fromSequence)
        #expect(fromSequence.events == [.finished])   // they have all finished already
    }

    @Test func synchronousUpstreamsMergeInOrderAndFinish() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        Just(1).merge(with: Just(2)).subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    @Test func mergeManyOfNothingFinishesAtOnce() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: [])
        Publishers.MergeMany([PassthroughSubject<Int, Never>]()).subscribe(recorder)
        #expect(recorder.events == [.finished])
    }

    @Test func failureFromOneUpstreamFailsAtOnceAndNothingFollows() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        a.merge(with: b).subscribe(recorder)

        a.send(1)
        b.send(completion: .failure(TestError(3)))
        a.send(2)
        a.send(completion: .finished)
        #expect(recorder.events == [.value(1), .failure(TestError(3))])
    }

    @Test func failureCancelsTheOtherUpstreams() {
        let probes = (0..<3).map { _ in TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true) }
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        Publishers.MergeMany(probes).subscribe(recorder)

        probes[1].send(completion: .failure(TestError(1)))
        #expect(probes.map(\.cancelCount) == [1, 0, 1])
        probes[0].send(5)   // a careless upstream sends after cancel: ignored
        probes[2].send(completion: .failure(TestError(2)))
        #expect(recorder.events == [.failure(TestError(1))])
    }

    @Test func demandFollowsCombineOneValueRequestedPerUpstream() {
        let a = TestPublisher<Int, Never>(releasesSubscriberOnCompletion: true)
        let b = TestPublisher<Int, Never>(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [])
        a.merge(with: b).subscribe(recorder)
        #expect(a.requests == [.max(1)])
        #expect(b.requests == [.max(1)])

        #expect(a.send(1) == .max(1))   // accepted: a may send one more
        #expect(b.send(2) == .none)     // no demand: waits in the buffer
        #expect(a.send(3) == .none)
        #expect(recorder.events == [.value(1)])

        recorder.request(.max(1))       // oldest first
        #expect(recorder.events == [.value(1), .value(2)])
        #expect(b.requests == [.max(1), .max(1)])
        #expect(a.requests == [.max(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .value(3)])
        #expect(a.requests == [.max(1), .max(1)])

        recorder.request(.unlimited)
        #expect(a.requests == [.max(1), .max(1), .unlimited])
        #expect(b.requests == [.max(1), .max(1), .unlimited])
        #expect(a.send(4) == .none)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .value(4)])
    }

    @Test func upstreamsSubscribedAfterUnlimitedDemandAreAskedForUnlimited() {
        let a = TestPublisher<Int, Never>(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<Int, Never>(initialDemand: .unlimited, releasesSubscription: [])
        a.merge(with: a).subscribe(recorder)
        #expect(a.requests == [.unlimited, .unlimited])
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1), releasesSubscription: [])
        a.merge(with: b).subscribe(recorder)

        a.send(1)
        b.send(2)
        a.send(3)
        #expect(recorder.values == [1, 2, 3])
        recorder.demandPerValue = .none
        b.send(4)
        b.send(5)   // waits in the buffer
        #expect(recorder.values == [1, 2, 3, 4])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3, 4, 5])
    }

    @Test func bufferedValuesAreDeliveredBeforeFinished() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [])
        a.merge(with: b).subscribe(recorder)

        a.send(1)
        b.send(2)
        b.send(completion: .finished)
        a.send(completion: .finished)
        #expect(recorder.events == [.value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    @Test func cancelCancelsEveryUpstreamAndStopsDelivery() {
        let a = TestPublisher<Int, Never>(releasesSubscriberOnCompletion: true)
        let b = TestPublisher<Int, Never>(releasesSubscriberOnCompletion: true)
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [])
        a.merge(with: b).subscribe(recorder)

        a.send(1)
        b.send(2)   // buffered
        recorder.cancel()
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
        recorder.request(.max(5))
        a.send(3)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(recorder.events == [.value(1)])
    }

    @Test func reentrantSendsAreDeliveredAfterTheCurrentValueNotInsideIt() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
        var depth = 0
        var maxDepth = 0
        recorder.onValue = { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            if value == 1 {
                b.send(2)
                a.send(3)
            }
            depth -= 1
        }
        a.merge(with: b).subscribe(recorder)

        a.send(1)
        #expect(recorder.values == [1, 2, 3])
        #expect(maxDepth == 1)
    }

    @Test func releasesItsSubscriberAfterCompletionAndCancel() {
        weak var weakRecorder: TestRecorder<Int, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [])
            weakRecorder = recorder
            a.merge(with: b).subscribe(recorder)
            weakSubscription = recorder.subscription as AnyObject
            a.send(completion: .finished)
            b.send(completion: .finished)
            #expect(recorder.events == [.finished])
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)

        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        do {
            let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [])
            weakRecorder = recorder
            a.merge(with: b).subscribe(recorder)
            weakSubscription = recorder.subscription as AnyObject
            a.send(1)
            b.send(2)   // buffered
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)
    }

    @Test func aValueSentWhileTheSubscriberIsBusyOnAnotherThreadWaitsItsTurn() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let detector = OverlapDetector()
        let entered = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        var received: [Int] = []
        let cancellable = a.merge(with: b).sink { value in
            detector.watch {
                received.append(value)
                if value == 1 {
                    entered.signal()
                    _ = resume.wait(timeout: .now() + 10)
                }
            }
        }
        let done = DispatchGroup()
        DispatchQueue(label: "opsB.merge.busy").async(group: done) { a.send(1) }
        #expect(entered.wait(timeout: .now() + 10) == .success)

        // The subscriber is busy with 1 on the other thread: these neither block nor call
        // it now; the busy thread delivers them, in order, once it is done with 1.
        b.send(2)
        b.send(3)
        #expect(received == [1])
        resume.signal()
        done.wait()
        #expect(received == [1, 2, 3])
        #expect(detector.overlaps == 0)
        withExtendedLifetime(cancellable) {}
    }

    @Test func upstreamsOnTwoThreadsNeverCallTheSubscriberConcurrently() {
        let count = 20_000
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let detector = OverlapDetector()
        var received: [Int] = []   // appended without a lock on purpose
        var completions = 0
        let cancellable = a.merge(with: b).sink(
            receiveCompletion: { _ in completions += 1 },
            receiveValue: { value in
                detector.watch { received.append(value) }
            })
        runConcurrently([(a, 0), (b, count)].map { subject, base in
            {
                for value in base..<(base + count) { subject.send(value) }
                subject.send(completion: .finished)
            }
        })

        #expect(detector.overlaps == 0)
        #expect(completions == 1)
        #expect(received.filter { $0 < count } == Array(0..<count))
        #expect(received.filter { $0 >= count } == Array(count..<(2 * count)))
        withExtendedLifetime(cancellable) {}
    }

    // MARK: Merge3 … Merge8

    @Test func mergeWithSeveralPublishersReturnsCombinesMergeTypes() {
        typealias S = PassthroughSubject<Int, Never>
        let p = (0..<8).map { _ in S() }
        let m3: Publishers.Merge3<S, S, S> = p[0].merge(with: p[1], p[2])
        let m4: Publishers.Merge4<S, S, S, S> = p[0].merge(with: p[1], p[2], p[3])
        let m5: Publishers.Merge5<S, S, S, S, S> = p[0].merge(with: p[1], p[2], p[3], p[4])
        let m6: Publishers.Merge6<S, S, S, S, S, S> = p[0].merge(with: p[1], p[2], p[3], p[4], p[5])
        let m7: Publishers.Merge7<S, S, S, S, S, S, S> = p[0].merge(with: p[1], p[2], p[3], p[4], p[5], p[6])
        let m8: Publishers.Merge8<S, S, S, S, S, S, S, S> = p[0].merge(with: p[1], p[2], p[3], p[4], p[5], p[6], p[7])
        // A merge merged with more publishers is one wider merge, as in Combine.
        let wider3: Publishers.Merge3<S, AnyPublisher<Int, Never>, S> = p[0].merge(with: p[1].eraseToAnyPublisher()).merge(with: p[2])
        let wider8: Publishers.Merge8<S, S, S, S, S, S, S, S> = m3.merge(with: p[3], p[4], p[5], p[6], p[7])
        let fromMerge2: Publishers.Merge8<S, AnyPublisher<Int, Never>, S, S, S, S, S, S> =
            p[0].merge(with: p[1].eraseToAnyPublisher()).merge(with: p[2], p[3], p[4], p[5], p[6], p[7])
        let fromMerge4: Publishers.Merge6<S, S, S, S, S, S> = m4.merge(with: p[4], p[5])
        let fromMerge7: Publishers.Merge8<S, S, S, S, S, S, S, S> = m7.merge(with: p[7])
        #expect(m8.h === p[7])
        #expect(wider8.d === p[3])

        let recorders = (0..<11).map { _ in TestRecorder<Int, Never>(releasesSubscription: []) }
        m3.subscribe(recorders[0])
        m4.subscribe(recorders[1])
        m5.subscribe(recorders[2])
        m6.subscribe(recorders[3])
        m7.subscribe(recorders[4])
        m8.subscribe(recorders[5])
        wider3.subscribe(recorders[6])
        wider8.subscribe(recorders[7])
        fromMerge2.subscribe(recorders[8])
        fromMerge4.subscribe(recorders[9])
        fromMerge7.subscribe(recorders[10])
        for (index, subject) in p.enumerated().reversed() { subject.send(index) }
        let widths = [3, 4, 5, 6, 7, 8, 3, 8, 8, 6, 8]
        for (recorder, width) in zip(recorders, widths) {
            #expect(recorder.values == Array((0..<width).reversed()))
        }
        for subject in p { subject.send(completion: .finished) }
        for recorder in recorders { #expect(recorder.events.last == .finished) }
    }

    @Test func merge8FinishesWhenAllHaveFinishedAndFailsAtTheFirstFailure() {
        let probes = (0..<8).map { _ in TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true) }
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        Publishers.Merge8(probes[0], probes[1], probes[2], probes[3], probes[4], probes[5], probes[6], probes[7])
            .subscribe(recorder)
        #expect(probes.allSatisfy { $0.requests == [.unlimited] })
        for probe in probes.dropLast() { probe.send(completion: .finished) }
        #expect(recorder.events == [])
        probes[7].send(1)
        probes[7].send(completion: .finished)
        #expect(recorder.events == [.value(1), .finished])

        let others = (0..<5).map { _ in TestPublisher<Int, TestError>(releasesSubscriberOnCompletion: true) }
        let failing = TestRecorder<Int, TestError>(releasesSubscription: [])
        others[0].merge(with: others[1], others[2], others[3], others[4]).subscribe(failing)
        others[0].send(completion: .finished)
        others[3].send(completion: .failure(.boom))
        #expect(failing.events == [.failure(.boom)])
        #expect(others.map(\.cancelCount) == [0, 1, 1, 0, 1])
    }

    @Test func merge3DemandIsCombines() {
        let probes = (0..<3).map { _ in TestPublisher<Int, Never>(releasesSubscriberOnCompletion: true) }
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [])
        probes[0].merge(with: probes[1], probes[2]).subscribe(recorder)
        #expect(probes.map(\.requests) == [[.max(1)], [.max(1)], [.max(1)]])
        probes[2].send(1)
        probes[0].send(2)   // waits for demand
        #expect(recorder.values == [1])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2])
        #expect(recorder.violations == [])
        recorder.cancel()
    }

    @Test func aCarelessUpstreamCannotFinishTheMergeEarlyNorSendAfterItsCompletion() {
        let a = TestPublisher<Int, TestError>()
        let b = TestPublisher<Int, TestError>()
        let c = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        a.merge(with: b, c).subscribe(recorder)
        a.send(completion: .finished)
        a.send(completion: .finished)   // a second completion
        a.send(completion: .finished)
        a.send(1)                       // a value after its completion
        a.send(completion: .failure(.boom))
        #expect(recorder.events == [])
        b.send(2)
        b.send(completion: .finished)
        #expect(recorder.events == [.value(2)])
        c.send(completion: .finished)
        #expect(recorder.events == [.value(2), .finished])
    }

    @Test func eightUpstreamsOnEightThreadsDeliverEveryValueOnceInOrder() {
        let count = 5_000
        let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
        let detector = OverlapDetector()
        var received: [Int] = []   // appended without a lock on purpose
        var completions = 0
        let cancellable = subjects[0]
            .merge(with: subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6], subjects[7])
            .sink(
                receiveCompletion: { _ in completions += 1 },
                receiveValue: { value in detector.watch { received.append(value) } })
        runConcurrently(subjects.enumerated().map { index, subject in
            {
                for value in 0..<count { subject.send(index * count + value) }
                subject.send(completion: .finished)
            }
        })

        #expect(detector.overlaps == 0)
        #expect(completions == 1)
        #expect(received.count == 8 * count)
        for index in 0..<8 {
            let range = (index * count)..<((index + 1) * count)
            #expect(received.filter { range.contains($0) } == Array(range))
        }
        withExtendedLifetime(cancellable) {}
    }

    @Test func mergeNIsEquatableWhenItsUpstreamsAre() {
        #expect(Publishers.Merge3(Just(1), Just(2), Just(3)) == Publishers.Merge3(Just(1), Just(2), Just(3)))
        #expect(
            Publishers.Merge8(Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8))
                != Publishers.Merge8(Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(9)))
    }
}
