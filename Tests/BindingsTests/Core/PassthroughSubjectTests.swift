import BindingsTestSupport
import Testing
@testable import Bindings

@Suite struct CorePassthroughSubjectTests {
    // MARK: Demand

    @Test func maxOneGetsOneValueUntilItAsksAgain() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), recordsSubscription: true)
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))
        // A passthrough subject keeps nothing: 2 is gone.
        #expect(recorder.events == [.subscription, .value(1)])
        subject.send(3)
        subject.send(4)
        #expect(recorder.events == [.subscription, .value(1), .value(3)])
    }

    @Test func dropsValuesSentWithoutDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        subject.subscribe(recorder)
        subject.send(1)
        recorder.request(.max(2))
        subject.send(2)
        subject.send(3)
        subject.send(4)
        recorder.request(.max(1))
        subject.send(5)
        #expect(recorder.events == [.subscription, .value(2), .value(3), .value(5)])
    }

    @Test func demandReturnedFromReceiveIsAdded() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1), recordsSubscription: true)
        subject.subscribe(recorder)
        for value in 1...4 { subject.send(value) }
        #expect(recorder.values == [1, 2, 3, 4])

        let twoAtATime = TestRecorder<Int, Never>(initialDemand: .max(2), recordsSubscription: true)
        subject.subscribe(twoAtATime)
        for value in 5...8 { subject.send(value) }
        #expect(twoAtATime.values == [5, 6])
    }

    @Test func requestFromInsideReceiveValue() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), recordsSubscription: true)
        recorder.onValue = { value in if value < 3 { recorder.request(.max(1)) } }
        subject.subscribe(recorder)
        for value in 1...5 { subject.send(value) }
        #expect(recorder.values == [1, 2, 3])
        recorder.onValue = nil
    }

    @Test func eachSubscriberHasItsOwnDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let one = TestRecorder<Int, Never>(initialDemand: .max(1), recordsSubscription: true)
        let all = TestRecorder<Int, Never>(recordsSubscription: true)
        let none = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
        subject.subscribe(one)
        subject.subscribe(all)
        subject.subscribe(none)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(one.events == [.subscription, .value(1), .finished])
        #expect(all.events == [.subscription, .value(1), .value(2), .finished])
        #expect(none.events == [.subscription, .finished])
    }

    // MARK: Completion

    @Test func completionDeliveredOnceAndLaterSendsIgnored() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(recordsSubscription: true)
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(completion: .failure(.other))
        #expect(recorder.events == [.subscription, .value(1), .failure(.boom)])
        #expect(subject.core.channel.observerCount == 0)
    }

    @Test func lateSubscriberToACompletedSubjectGetsTheCompletionAtOnce() {
        let subject = PassthroughSubject<Int, TestError>()
        subject.send(completion: .failure(.other))
        let recorder = TestRecorder<Int, TestError>(initialDemand: .none, recordsSubscription: true)
        subject.subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(.other)])
        subject.send(1)
        #expect(recorder.events == [.subscription, .failure(.other)])
        #expect(subject.core.channel.observerCount == 0)
    }

    @Test func voidSend() {
        let subject = PassthroughSubject<Void, Never>()
        var count = 0
        let cancellable = subject.sink { count += 1 }
        subject.send()
        subject.send()
        #expect(count == 2)
        withExtendedLifetime(cancellable) {}
    }

    // MARK: Cancel

    @Test func nothingAfterCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        let other = TestRecorder<Int, Never>(recordsSubscription: true)
        subject.subscribe(recorder)
        subject.subscribe(other)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(other.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func cancelFromInsideTheSinkStopsItsLaterDeliveries() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var otherReceived: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = subject.sink { value in
            received.append(value)
            if value == 1 {
                // Queued while 1 is being delivered; must not reach this sink.
                subject.send(2)
                cancellable?.cancel()
            }
        }
        let other = subject.sink { otherReceived.append($0) }
        subject.send(1)
        subject.send(3)
        #expect(received == [1])
        #expect(otherReceived == [1, 2, 3])
        #expect(subject.core.channel.observerCount == 1)
        withExtendedLifetime(other) {}
    }

    @Test func cancellingAnotherSubscriberFromInsideASink() {
        let subject = PassthroughSubject<Int, Never>()
        let second = TestRecorder<Int, Never>(recordsSubscription: true)
        var first: [Int] = []
        let cancellable = subject.sink { value in
            first.append(value)
            if value == 2 { second.cancel() }
        }
        subject.subscribe(second)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(first == [1, 2, 3])
        #expect(second.events == [.subscription, .value(1)])
        withExtendedLifetime(cancellable) {}
    }

    @Test func subscriberReleasedAfterCancel() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTracked: Canary?
        let cancellable: AnyCancellable
        do {
            let tracked = Canary()
            weakTracked = tracked
            cancellable = subject.sink { tracked.value = $0 }
        }
        subject.send(1)
        #expect(weakTracked?.value == 1)
        cancellable.cancel()
        #expect(weakTracked == nil)
    }

    @Test func subscriberReleasedAfterCancelFromInsideItsSink() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTracked: Canary?
        var cancellable: AnyCancellable?
        do {
            let tracked = Canary()
            weakTracked = tracked
            cancellable = subject.sink { value in
                tracked.value = value
                cancellable?.cancel()
            }
        }
        subject.send(1)
        #expect(weakTracked == nil)
        #expect(subject.core.channel.observerCount == 0)
        withExtendedLifetime(cancellable) {}
    }

    @Test func subscribersReleasedAfterCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
            weakRecorder = recorder
            subject.subscribe(recorder)
        }
        // The subject holds the subscriber (through its conduit).
        #expect(weakRecorder != nil)
        subject.send(completion: .finished)
        // The recorder holds its subscription, which does not hold it: released once
        // the subject lets go of it after completion, as in Combine.
        #expect(weakRecorder == nil)
    }

    // MARK: Re-entrancy

    @Test func sendFromInsideASinkIsDeliveredInOrderToEverySubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        var first: [Int] = []
        var second: [Int] = []
        var third: [Int] = []
        let a = subject.sink { first.append($0) }
        let b = subject.sink { value in
            second.append(value)
            if value == 1 {
                subject.send(2)
                subject.send(3)
            }
            if value == 3 { subject.send(4) }
        }
        let c = subject.sink { third.append($0) }
        subject.send(1)
        #expect(first == [1, 2, 3, 4])
        #expect(second == [1, 2, 3, 4])
        #expect(third == [1, 2, 3, 4])
        withExtendedLifetime((a, b, c)) {}
    }

    @Test func completionSentFromInsideASinkComesAfterTheCurrentValue() {
        let subject = PassthroughSubject<Int, Never>()
        let first = TestRecorder<Int, Never>(recordsSubscription: true)
        first.onValue = { _ in subject.send(completion: .finished) }
        let second = TestRecorder<Int, Never>(recordsSubscription: true)
        subject.subscribe(first)
        subject.subscribe(second)
        subject.send(1)
        subject.send(2)
        #expect(first.events == [.subscription, .value(1), .finished])
        #expect(second.events == [.subscription, .value(1), .finished])
        first.onValue = nil
    }

    @Test func subscribeFromInsideASinkGetsOnlyLaterValues() {
        let subject = PassthroughSubject<Int, Never>()
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
        subject.send(3)
        #expect(received == [1, 2, 3])
        #expect(late.events == [.subscription, .value(3)])
        withExtendedLifetime(cancellable) {}
    }

    // MARK: Upstream

    @Test func sendSubscriptionRequestsUnlimitedOnceASubscriberAsks() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = TestSubscription()
        subject.send(subscription: upstream)
        // As in Combine: nothing until the subject's own subscribers ask.
        #expect(upstream.requests == [])
        let recorder = TestRecorder<Int, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        #expect(upstream.requests == [])
        recorder.subscription?.request(.max(1))
        #expect(upstream.requests == [.unlimited])
        // Asked once: later demand, and later subscribers, ask nothing more.
        recorder.subscription?.request(.max(2))
        let sink = subject.sink { _ in }
        #expect(upstream.requests == [.unlimited])
        // A subscription received after that is asked at once.
        let late = TestSubscription()
        subject.send(subscription: late)
        #expect(late.requests == [.unlimited])
        #expect(upstream.cancelCount == 0)
        withExtendedLifetime(sink) {}
    }

    @Test func aSinkIsASubscriberThatAsks() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let upstream = TestSubscription()
        subject.send(subscription: upstream)
        #expect(upstream.requests == [])
        let sink = subject.sink { _ in }
        #expect(upstream.requests == [.unlimited])
        withExtendedLifetime(sink) {}
    }

    @Test func anySubscriberOfASubjectHonoursItsDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = TestSubscription()
        AnySubscriber(subject).receive(subscription: upstream)
        #expect(upstream.requests == [])
        var received: [Int] = []
        let sink = subject.sink { received.append($0) }
        #expect(upstream.requests == [.unlimited])
        #expect(AnySubscriber(subject).receive(4) == .none)
        #expect(received == [4])
        withExtendedLifetime(sink) {}
    }

    @Test func justSubscribedToASubjectWaitsForTheSubjectsSubscribers() {
        let subject = PassthroughSubject<Int, Never>()
        let connection = Just(7).subscribe(subject)
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        subject.subscribe(recorder)
        // The subscriber asked: the subject asked Just, whose value it passes on.
        #expect(recorder.events == [.subscription, .value(7), .finished])
        withExtendedLifetime(connection) {}
    }

    @Test func publisherSubscribeSubjectRepublishesValuesAndCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        subject.subscribe(recorder)
        let cancellable = Just(7).subscribe(subject)
        #expect(recorder.events == [.subscription, .value(7), .finished])
        withExtendedLifetime(cancellable) {}
    }

    @Test func cancellingTheConnectionStopsForwarding() {
        let upstream = PassthroughSubject<Int, TestError>()
        let relay = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(recordsSubscription: true)
        relay.subscribe(recorder)
        let connection = upstream.subscribe(relay)
        upstream.send(1)
        connection.cancel()
        upstream.send(2)
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.core.channel.observerCount == 0)
        relay.send(3)
        #expect(recorder.events == [.subscription, .value(1), .value(3)])
    }

    @Test func connectionKeepsTheRelayAliveAsInCombine() {
        let upstream = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        var connection: AnyCancellable?
        weak var weakRelay: PassthroughSubject<Int, Never>?
        do {
            let relay = PassthroughSubject<Int, Never>()
            weakRelay = relay
            relay.subscribe(recorder)
            connection = upstream.subscribe(relay)
        }
        upstream.send(1)
        #expect(recorder.events == [.subscription, .value(1)])
        connection = nil
        upstream.send(2)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(weakRelay == nil)
        withExtendedLifetime(connection) {}
    }

    @Test func subjectDeinitCancelsItsUpstreams() {
        let upstream = TestSubscription()
        do {
            let subject = PassthroughSubject<Int, Never>()
            subject.send(subscription: upstream)
        }
        #expect(upstream.cancelCount == 1)
    }

    // MARK: Threads

    @Test func sendsFromFourThreadsAreAllDeliveredSerially() {
        let subject = PassthroughSubject<Int, Never>()
        let perThread = 2_000
        // No lock: the channel delivers one value at a time (TSan checks it).
        var received: [Int] = []
        var otherCount = 0
        let a = subject.sink { received.append($0) }
        let b = subject.sink { _ in otherCount += 1 }
        runConcurrently(threads: 4) { thread in
            for index in 0..<perThread { subject.send(thread * perThread + index) }
        }
        #expect(received.count == 4 * perThread)
        #expect(otherCount == 4 * perThread)
        #expect(Set(received) == Set(0..<(4 * perThread)))
        // Each thread's values arrive in the order that thread sent them.
        for thread in 0..<4 {
            let range = (thread * perThread)..<((thread + 1) * perThread)
            #expect(received.filter { range.contains($0) } == Array(range))
        }
        withExtendedLifetime((a, b)) {}
    }

    @Test func subscribeCancelAndSendFromSeveralThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let total = Counter()
        let steady = Counter()
        let keep = subject.sink { _ in steady.increment() }
        runConcurrently(threads: 4) { thread in
            for index in 0..<500 {
                if thread < 2 {
                    subject.send(index)
                } else {
                    let recorder = TestRecorder<Int, Never>(initialDemand: .max(2), recordsSubscription: true)
                    subject.subscribe(recorder)
                    if index % 2 == 0 { recorder.cancel() }
                    total.increment()
                    #expect(recorder.values.count <= 2)
                    recorder.cancel()
                }
            }
        }
        #expect(steady.value == 1_000)
        #expect(total.value == 1_000)
        #expect(subject.core.channel.observerCount == 1)
        withExtendedLifetime(keep) {}
    }

    @Test func completionFromAnotherThreadDuringReceiveSubscriptionWaitsForIt() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(recordsSubscription: true)
        // While the subscriber is still in receive(subscription:), another thread
        // completes the subject (and waits for that send to return).
        var eventsWhileSubscribing: [TestRecorder<Int, TestError>.Event] = []
        recorder.onSubscription = { _ in
            runConcurrently(threads: 1) { _ in subject.send(completion: .failure(.boom)) }
            // Calls to a subscriber never overlap: the completion waits for this to return.
            eventsWhileSubscribing = recorder.events
        }
        subject.subscribe(recorder)
        #expect(eventsWhileSubscribing == [.subscription])
        #expect(recorder.events == [.subscription, .failure(.boom)])
        recorder.onSubscription = nil
    }

    @Test func cancelInsideReceiveSubscriptionDropsAnEarlyCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        recorder.onSubscription = { subscription in
            runConcurrently(threads: 1) { _ in subject.send(completion: .finished) }
            subscription.cancel()
        }
        subject.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.onSubscription = nil
    }

    @Test func concurrentCompletionNeverReachesASubscriberBeforeItsSubscription() {
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, Never>()
            let box = UncheckedBox(TestRecorder<Int, Never>(recordsSubscription: true))
            runConcurrently(threads: 2) { thread in
                if thread == 0 {
                    subject.send(completion: .finished)
                } else {
                    subject.subscribe(box.value)
                }
            }
            #expect(box.value.events == [.subscription, .finished])
        }
    }
}
