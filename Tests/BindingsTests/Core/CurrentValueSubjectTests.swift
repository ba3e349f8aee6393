import BindingsTestSupport
import Testing
@testable import Bindings

@Suite struct CoreCurrentValueSubjectTests {
    @Test func subscriberStartsWithTheCurrentValue() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        subject.subscribe(recorder)
        subject.send(2)
        subject.value = 3
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3)])
        #expect(subject.value == 3)
    }

    @Test func sinkReplaysCurrentAndStopsOnCancel() {
        let subject = CurrentValueSubject<String, Never>("a")
        var got: [String] = []
        let cancellable = subject.sink { got.append($0) }
        subject.value = "b"
        cancellable.cancel()
        subject.value = "c"
        #expect(got == ["a", "b"])
        #expect(subject.value == "c")
    }

    // MARK: Demand

    @Test func currentValueWaitsForDemand() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        subject.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        subject.value = 2
        subject.value = 3
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        // The latest value, once.
        #expect(recorder.events == [.subscription, .value(3)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(3)])
        subject.send(4)
        subject.send(5)
        #expect(recorder.events == [.subscription, .value(3), .value(4)])
    }

    @Test func maxOneGetsOneValueUntilItAsksAgainThenTheLatest() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), recordsSubscription: true)
        subject.subscribe(recorder)
        #expect(recorder.values == [0])
        subject.send(1)
        subject.send(2)
        #expect(recorder.values == [0])
        recorder.request(.max(1))
        #expect(recorder.values == [0, 2])
        recorder.request(.max(2))
        subject.send(3)
        subject.send(4)
        subject.send(5)
        #expect(recorder.values == [0, 2, 3, 4])
    }

    @Test func demandReturnedFromReceiveIsAdded() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1), recordsSubscription: true)
        subject.subscribe(recorder)
        for value in 1...3 { subject.send(value) }
        #expect(recorder.values == [0, 1, 2, 3])
    }

    @Test func requestInsideAnotherSinkWhileANewerValueIsQueuedDeliversItOnce() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let manual = TestRecorder<Int, Never>(initialDemand: .max(1), recordsSubscription: true)
        subject.subscribe(manual)
        let cancellable = subject.sink { value in
            if value == 1 {
                subject.send(2)
                manual.request(.max(1))
            }
        }
        subject.send(1)
        // 1 arrived without demand; the request is answered by 2, once.
        #expect(manual.values == [0, 2])
        manual.request(.max(1))
        #expect(manual.values == [0, 2])
        subject.send(3)
        #expect(manual.values == [0, 2, 3])
        withExtendedLifetime(cancellable) {}
    }

    @Test func unlimitedRequestInsideAnotherSinkWhileANewerValueIsQueuedDeliversItOnce() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let manual = TestRecorder<Int, Never>(initialDemand: .max(1), recordsSubscription: true)
        subject.subscribe(manual)
        let cancellable = subject.sink { value in
            if value == 1 {
                subject.send(2)
                manual.request(.unlimited)
            }
        }
        subject.send(1)
        subject.send(3)
        #expect(manual.values == [0, 2, 3])
        withExtendedLifetime(cancellable) {}
    }

    // MARK: Completion

    @Test func completionDeliveredOnceAndLaterSendsIgnored() {
        let subject = CurrentValueSubject<Int, TestError>(1)
        let recorder = TestRecorder<Int, TestError>(recordsSubscription: true)
        subject.subscribe(recorder)
        subject.send(completion: .failure(.boom))
        subject.send(2)
        subject.value = 3
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .failure(.boom)])
        // As in Combine: after completion, `send(_:)` is ignored, but setting `value`
        // stores it (and sends nothing).
        #expect(subject.value == 3)
        #expect(subject.core.channel.observerCount == 0)
    }

    @Test func afterCompletionSendLeavesTheValueAndSettingValueStoresIt() {
        let subject = CurrentValueSubject<Int, Never>(1)
        subject.send(completion: .finished)
        subject.send(2)
        #expect(subject.value == 1)
        subject.value = 3
        #expect(subject.value == 3)
        let recorder = TestRecorder<Int, Never>()
        subject.subscribe(recorder)
        #expect(recorder.events == [.finished])
    }

    @Test func completionDoesNotNeedDemand() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        subject.subscribe(recorder)
        subject.send(completion: .finished)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func lateSubscriberToACompletedSubjectGetsOnlyTheCompletion() {
        let subject = CurrentValueSubject<Int, TestError>(1)
        subject.send(completion: .failure(.other))
        let recorder = TestRecorder<Int, TestError>(recordsSubscription: true)
        subject.subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(.other)])
    }

    // MARK: Cancel and release

    @Test func nothingAfterCancel() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        subject.subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(0), .value(1)])
    }

    @Test func cancelFromInsideTheSink() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var received: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = subject.sink { value in
            received.append(value)
            if value == 1 {
                subject.send(2)
                cancellable?.cancel()
            }
        }
        subject.send(1)
        subject.send(3)
        #expect(received == [0, 1])
        #expect(subject.value == 3)
        #expect(subject.core.channel.observerCount == 0)
    }

    @Test func cancelBeforeDemandArrivesDeliversNothing() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        subject.subscribe(recorder)
        let subscription = recorder.subscription
        recorder.cancel()
        subscription?.request(.max(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func subscriberReleasedAfterCancel() {
        let subject = CurrentValueSubject<Int, Never>(0)
        weak var weakTracked: Canary?
        let cancellable: AnyCancellable
        do {
            let tracked = Canary()
            weakTracked = tracked
            cancellable = subject.sink { tracked.value = $0 }
        }
        subject.value = 4
        #expect(weakTracked?.value == 4)
        cancellable.cancel()
        #expect(weakTracked == nil)
    }

    // MARK: Re-entrancy

    @Test func setFromInsideASinkEndsEverySubscriberOnTheLastValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var first: [Int] = []
        var second: [Int] = []
        var third: [Int] = []
        let a = subject.sink { first.append($0) }
        let b = subject.sink { value in
            second.append(value)
            if value == 1 { subject.value = 2 }
            if value == 2 { subject.value = 3 }
        }
        let c = subject.sink { third.append($0) }
        subject.value = 1
        #expect(first == [0, 1, 2, 3])
        #expect(second == [0, 1, 2, 3])
        #expect(third == [0, 1, 2, 3])
        #expect(subject.value == 3)
        withExtendedLifetime((a, b, c)) {}
    }

    @Test func readingValueInsideASinkSeesTheLatestSet() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var seen: [Int] = []
        let a = subject.sink { value in
            if value == 1 { subject.value = 2 }
        }
        let b = subject.sink { _ in seen.append(subject.value) }
        subject.value = 1
        // While 1 is delivered, 2 is already the value (and arrives next).
        #expect(seen == [0, 2, 2])
        withExtendedLifetime((a, b)) {}
    }

    @Test func subscribeFromInsideASinkGetsTheCurrentValueThenLaterOnes() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let late = TestRecorder<Int, Never>(recordsSubscription: true)
        var received: [Int] = []
        let cancellable = subject.sink { value in
            received.append(value)
            if value == 1 {
                subject.subscribe(late)
            }
        }
        subject.send(1)
        subject.send(2)
        #expect(received == [0, 1, 2])
        #expect(late.events == [.subscription, .value(1), .value(2)])
        withExtendedLifetime(cancellable) {}
    }

    @Test func subscribeFromInsideASinkAfterANestedSendGetsTheNewestOnce() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let late = TestRecorder<Int, Never>(recordsSubscription: true)
        var received: [Int] = []
        let cancellable = subject.sink { value in
            received.append(value)
            if value == 1 {
                subject.send(2)
                subject.subscribe(late)
            }
        }
        subject.send(1)
        #expect(received == [0, 1, 2])
        #expect(late.events == [.subscription, .value(2)])
        withExtendedLifetime(cancellable) {}
    }

    // MARK: Upstream

    @Test func publisherSubscribeSubjectUpdatesTheValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        subject.subscribe(recorder)
        let cancellable = Just(5).subscribe(subject)
        #expect(subject.value == 5)
        #expect(recorder.events == [.subscription, .value(0), .value(5), .finished])
        withExtendedLifetime(cancellable) {}
    }

    @Test func chainedSubjects() {
        let source = CurrentValueSubject<Int, Never>(1)
        let mirror = CurrentValueSubject<Int, Never>(0)
        let connection = source.subscribe(mirror)
        // As in Combine: a subject asks its upstream for values only once one of its own
        // subscribers asks.
        #expect(mirror.value == 0)
        var seen: [Int] = []
        let watcher = mirror.sink { seen.append($0) }
        #expect(mirror.value == 1)
        source.value = 2
        #expect(mirror.value == 2)
        connection.cancel()
        source.value = 3
        #expect(mirror.value == 2)
        #expect(seen == [0, 1, 2])
        withExtendedLifetime(watcher) {}
    }

    // MARK: Threads

    @Test func valueGetAndSetFromSeveralThreads() {
        let subject = CurrentValueSubject<Int, Never>(-1)
        let perThread = 1_000
        // No lock: the channel delivers one value at a time (TSan checks it).
        var received: [Int] = []
        let cancellable = subject.sink { received.append($0) }
        runConcurrently(threads: 4) { thread in
            for index in 0..<perThread {
                subject.value = thread * perThread + index
                let read = subject.value
                #expect(read >= 0 && read < 4 * perThread)
            }
        }
        #expect(received.count == 1 + 4 * perThread)
        #expect(received.first == -1)
        // Never stale: the last value received is the subject's value.
        #expect(received.last == subject.value)
        for thread in 0..<4 {
            let range = (thread * perThread)..<((thread + 1) * perThread)
            #expect(received.filter { range.contains($0) } == Array(range))
        }
        withExtendedLifetime(cancellable) {}
    }

    @Test func manualDemandFromAnotherThreadWhileSending() {
        for _ in 0..<50 {
            let subject = CurrentValueSubject<Int, Never>(0)
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
            subject.subscribe(recorder)
            runConcurrently(threads: 2) { thread in
                if thread == 0 {
                    for value in 1...200 { subject.send(value) }
                } else {
                    for _ in 0..<20 { recorder.request(.max(1)) }
                }
            }
            let values = recorder.values
            #expect(values.count <= 20)
            // Values only move forward: nothing twice, nothing older after newer.
            #expect(values == values.sorted())
            #expect(Set(values).count == values.count)
            // With demand left over, the subscriber ends on the latest value.
            if values.count < 20 { #expect(values.last == 200) }
        }
    }
}
