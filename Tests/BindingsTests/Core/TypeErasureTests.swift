import BindingsTestSupport
import Testing
@testable import Bindings

/// A publisher that counts its subscribers, to check that erasure forwards to it once.
private struct CountingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = TestError
    let subscribed: Counter
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        subscribed.increment()
        Just(subscribed.value).subscribe(AnySubscriber(
            receiveSubscription: { subscriber.receive(subscription: $0) },
            receiveValue: { subscriber.receive($0) },
            receiveCompletion: { _ in subscriber.receive(completion: .failure(.boom)) }))
    }
}

@Suite struct CoreAnyPublisherTests {
    @Test func forwardsValuesAndCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        let erased: AnyPublisher<Int, TestError> = subject.eraseToAnyPublisher()
        let recorder = TestRecorder<Int, TestError>(recordsSubscription: true)
        erased.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(.boom)])
    }

    @Test func forwardsDemandAndCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), recordsSubscription: true)
        AnyPublisher(subject).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        recorder.request(.max(1))
        subject.send(3)
        recorder.cancel()
        subject.send(4)
        #expect(recorder.events == [.subscription, .value(1), .value(3)])
        #expect(subject.core.channel.observerCount == 0)
    }

    @Test func subscribesUpstreamOncePerSubscriber() {
        let counter = Counter()
        let erased = CountingPublisher(subscribed: counter).eraseToAnyPublisher()
        let first = TestRecorder<Int, TestError>(recordsSubscription: true)
        let second = TestRecorder<Int, TestError>(recordsSubscription: true)
        erased.subscribe(first)
        erased.subscribe(second)
        #expect(counter.value == 2)
        #expect(first.events == [.subscription, .value(1), .failure(.boom)])
        #expect(second.events == [.subscription, .value(2), .failure(.boom)])
    }

    @Test func erasingTwiceDoesNotWrapTwice() {
        let subject = PassthroughSubject<Int, Never>()
        let once = subject.eraseToAnyPublisher()
        let twice = once.eraseToAnyPublisher()
        let viaInit = AnyPublisher(once)
        #expect(once.box === twice.box)
        #expect(once.box === viaInit.box)
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        twice.subscribe(recorder)
        subject.send(9)
        #expect(recorder.events == [.subscription, .value(9)])
    }

    @Test func sinkAndCurrentValueThroughErasure() {
        let subject = CurrentValueSubject<String, Never>("a")
        var received: [String] = []
        let cancellable = subject.eraseToAnyPublisher().sink { received.append($0) }
        subject.value = "b"
        cancellable.cancel()
        subject.value = "c"
        #expect(received == ["a", "b"])
    }

    @Test func justEmptyFailThroughErasure() {
        let just = TestRecorder<Int, Never>(recordsSubscription: true)
        Just(1).eraseToAnyPublisher().subscribe(just)
        #expect(just.events == [.subscription, .value(1), .finished])
        let empty = TestRecorder<Int, Never>(recordsSubscription: true)
        Empty<Int, Never>().eraseToAnyPublisher().subscribe(empty)
        #expect(empty.events == [.subscription, .finished])
        let fail = TestRecorder<Int, TestError>(recordsSubscription: true)
        Fail<Int, TestError>(error: .other).eraseToAnyPublisher().subscribe(fail)
        #expect(fail.events == [.subscription, .failure(.other)])
    }
}

@Suite struct CoreAnySubscriberTests {
    @Test func forwardsEverythingToTheWrappedSubscriber() {
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(2), demandPerValue: .max(3), recordsSubscription: true)
        let erased = AnySubscriber(recorder)
        #expect(erased.combineIdentifier == recorder.combineIdentifier)
        let subscription = TestSubscription()
        erased.receive(subscription: subscription)
        #expect(subscription.requests == [.max(2)])
        #expect(erased.receive(4) == .max(3))
        erased.receive(completion: .failure(.boom))
        #expect(recorder.events == [.subscription, .value(4), .failure(.boom)])
    }

    @Test func wrappingTwiceKeepsTheIdentity() {
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        let once = AnySubscriber(recorder)
        let twice = AnySubscriber(once)
        #expect(twice.combineIdentifier == recorder.combineIdentifier)
        #expect(twice.description == once.description)
        _ = twice.receive(1)
        #expect(recorder.values == [1])
    }

    @Test func closureBasedSubscriber() {
        var events: [String] = []
        let subscriber = AnySubscriber<Int, TestError>(
            receiveSubscription: { $0.request(.max(1)); events.append("subscription") },
            receiveValue: { events.append("value \($0)"); return .max(1) },
            receiveCompletion: { events.append("completion \($0)") })
        let subject = PassthroughSubject<Int, TestError>()
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        #expect(events == ["subscription", "value 1", "value 2", "completion failure(BindingsTestSupport.TestError.boom)"])
        #expect(subscriber.description == "Anonymous AnySubscriber")
    }

    @Test func closureDefaultsRequestNothing() {
        let subscriber = AnySubscriber<Int, Never>()
        let subscription = TestSubscription()
        subscriber.receive(subscription: subscription)
        #expect(subscription.requests == [])
        #expect(subscriber.receive(1) == .none)
        subscriber.receive(completion: .finished)
        #expect(AnySubscriber<Int, Never>().combineIdentifier != subscriber.combineIdentifier)
    }

    @Test func wrapsASubject() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(recordsSubscription: true)
        subject.subscribe(recorder)
        let subscriber = AnySubscriber(subject)
        let upstream = TestSubscription()
        subscriber.receive(subscription: upstream)
        #expect(upstream.requests == [.unlimited])
        #expect(subscriber.receive(1) == .none)
        subscriber.receive(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
        Just(2).subscribe(AnySubscriber(CurrentValueSubject<Int, Never>(0)))
    }

    @Test func voidSubscriberReceive() {
        var count = 0
        let subscriber = AnySubscriber<Void, Never>(receiveValue: { count += 1; return .none })
        _ = subscriber.receive()
        #expect(count == 1)
    }
}

@Suite struct CoreCombineIdentifierTests {
    @Test func classesAreIdentifiedByIdentity() {
        let a = TestRecorder<Int, Never>(recordsSubscription: true)
        let b = TestRecorder<Int, Never>(recordsSubscription: true)
        #expect(a.combineIdentifier == a.combineIdentifier)
        #expect(a.combineIdentifier == CombineIdentifier(a))
        #expect(a.combineIdentifier != b.combineIdentifier)
        #expect(CombineIdentifier(a).description.hasPrefix("0x"))
    }

    @Test func freshIdentifiersAreUniqueAndApartFromObjects() {
        let ids = (0..<1_000).map { _ in CombineIdentifier() }
        #expect(Set(ids).count == 1_000)
        let object = Canary()
        #expect(!ids.contains(CombineIdentifier(object)))
    }

    @Test func objectIdentifierIsTheAddress() {
        let object = Canary()
        let address = UInt(bitPattern: ObjectIdentifier(object))
        #expect(CombineIdentifier(object).description == "0x" + String(address, radix: 16))
    }
}
