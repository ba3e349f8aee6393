import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// Issue 13, item 1: `share()`, `multicast`, `ConnectablePublisher`, `makeConnectable()`
// and `autoconnect()`, with Combine's semantics.

@Suite("Publishers: makeConnectable, multicast, autoconnect, share")
struct ShareMulticastTests {
    @Test func makeConnectableSendsNothingUntilConnected() {
        let upstream = TestPublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let a = TestRecorder<Int, Never>()
        let b = TestRecorder<Int, Never>()
        connectable.subscribe(a)
        connectable.subscribe(b)
        #expect(upstream.log == [])
        let connection = connectable.connect()
        #expect(upstream.log == [.subscribed, .request(.unlimited)])
        _ = upstream.send(1)
        _ = upstream.send(2)
        connection.cancel()
        _ = upstream.send(3)
        #expect(a.values == [1, 2])
        #expect(b.values == [1, 2])
        #expect(upstream.cancelCount == 1)
    }

    @Test func multicastMakesItsSubjectOnceAndConnectsItToTheUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        var made = 0
        let multicast = upstream.multicast { () -> PassthroughSubject<Int, TestError> in
            made += 1
            return PassthroughSubject()
        }
        #expect(made == 0)
        let a = TestRecorder<Int, TestError>()
        multicast.subscribe(a)
        let connection = multicast.connect()
        let b = TestRecorder<Int, TestError>()
        multicast.subscribe(b)
        #expect(made == 1)
        _ = upstream.send(1)
        upstream.send(completion: .failure(.boom))
        #expect(a.events == [.value(1), .failure(.boom)])
        #expect(b.events == [.value(1), .failure(.boom)])
        withExtendedLifetime(connection) {}
    }

    @Test func multicastThroughAGivenSubject() {
        let relay = CurrentValueSubject<Int, Never>(0)
        let multicast = [1, 2].publisher.multicast(subject: relay)
        let recorder = TestRecorder<Int, Never>()
        multicast.subscribe(recorder)
        #expect(recorder.values == [0])
        let connection = multicast.connect()
        #expect(recorder.events == [.value(0), .value(1), .value(2), .finished])
        #expect(relay.value == 2)
        withExtendedLifetime(connection) {}
    }

    @Test func autoconnectConnectsForTheFirstAndDisconnectsAfterTheLastCancel() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.makeConnectable().autoconnect()
        let a = TestRecorder<Int, Never>()
        shared.subscribe(a)
        #expect(upstream.log == [.subscribed, .request(.unlimited)])
        let b = TestRecorder<Int, Never>()
        shared.subscribe(b)
        _ = upstream.send(1)
        a.cancel()
        _ = upstream.send(2)
        #expect(upstream.cancelCount == 0, "b is still attached")
        b.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(a.values == [1])
        #expect(b.values == [1, 2])
        // A new subscriber connects again.
        let c = TestRecorder<Int, Never>()
        shared.subscribe(c)
        #expect(upstream.requests == [.unlimited, .unlimited])
        _ = upstream.send(3)
        #expect(c.values == [3])
    }

    @Test func shareSubscribesUpstreamOnceForAllItsSubscribers() {
        var subscriptions = 0
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.handleEvents(receiveSubscription: { _ in subscriptions += 1 }).share()
        var a: [Int] = []
        var b: [Int] = []
        let ca = shared.sink { a.append($0) }
        let cb = shared.sink { b.append($0) }
        subject.send(1)
        subject.send(2)
        #expect(subscriptions == 1)
        #expect(a == [1, 2])
        #expect(b == [1, 2])
        ca.cancel()
        subject.send(3)
        #expect(a == [1, 2])
        #expect(b == [1, 2, 3])
        cb.cancel()
        #expect(subject.core.channel.observerCount == 0, "the last cancel ends the shared subscription")
    }

    @Test func shareRunsItsUpstreamOnceAndALateSubscriberGetsTheCompletion() {
        var runs = 0
        let shared = Deferred { () -> Publishers.Sequence<[Int], Never> in
            runs += 1
            return [1, 2, 3].publisher
        }.share()
        let first = TestRecorder<Int, Never>()
        shared.subscribe(first)
        let late = TestRecorder<Int, Never>(recordsSubscription: true)
        shared.subscribe(late)
        #expect(runs == 1)
        #expect(first.events == [.value(1), .value(2), .value(3), .finished])
        #expect(late.events == [.subscription, .finished])
    }

    @Test func shareIsComparedByIdentity() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let same = shared
        #expect(shared == same)
        #expect(shared != subject.share())
    }

    @Test func subscribersComingAndGoingOnManyThreadsLeaveNothingConnected() {
        // Under ThreadSanitizer in CI: the connection count and the subject are shared.
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let received = Counter()
        let sender = DispatchQueue(label: "sender")
        sender.async { for value in 0..<2_000 { subject.send(value) } }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let c = shared.sink { _ in received.increment() }
                c.cancel()
            }
        }
        sender.sync {}
        #expect(subject.core.channel.observerCount == 0)
        let last = TestRecorder<Int, Never>()
        shared.subscribe(last)
        subject.send(-1)
        #expect(last.values == [-1])
        #expect(subject.core.channel.observerCount == 1)
    }
}
