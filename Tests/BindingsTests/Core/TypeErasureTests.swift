import Testing
@testable import Bindings

/// A subscription that records what it is asked.
private final class ProbeSubscription: Subscription {
    var requests: [Subscribers.Demand] = []
    var cancels = 0
    func request(_ demand: Subscribers.Demand) { requests.append(demand) }
    func cancel() { cancels += 1 }
}

/// A publisher that counts its subscribers, to check that erasure forwards to it once.
private struct CountingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = CoreTestError
    let subscribed: CoreCounter
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == CoreTestError {
        subscribed.increment()
        Just(subscribed.count).subscribe(AnySubscriber(
            receiveSubscription: { subscriber.receive(subscription: $0) },
            receiveValue: { subscriber.receive($0) },
            receiveCompletion: { _ in subscriber.receive(completion: .failure(.boom)) }))
    }
}

@Suite struct CoreAnyPublisherTests {
    @Test func forwardsValuesAndCompletion() {
        let subject = PassthroughSubject<Int, CoreTestError>()
        let erased: AnyPublisher<Int, CoreTestError> = subject.eraseToAnyPublisher()
        let recorder = CoreRecorder<Int, CoreTestError>()
        erased.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(.boom)])
    }

    @Test func forwardsDemandAndCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = CoreRecorder<Int, Never>(initialDemand: .max(1))
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
        let counter = CoreCounter()
        let erased = CountingPublisher(subscribed: counter).eraseToAnyPublisher()
        let first = CoreRecorder<Int, CoreTestError>()
        let second = CoreRecorder<Int, CoreTestError>()
        erased.subscribe(first)
        erased.subscribe(second)
        #expect(counter.count == 2)
        #expect(first.events == [.subscription, .value(1), .failure(.boom)])
        #expect(second.events == [.subscription, .value(2), .failure(.boom)])
    }

    @Test func erasingTwiceDoesNotWrapTwice() {
        let subject = PassthroughSubject<Int, Never>()
        let once = subject.eraseToAnyPublisher()
        let twice = once.eraseToAnyPublisher()
        let viaInit = AnyPublisher(once)
        #expect(once.description == twice.description)
        #expect(once.description == viaInit.description)
        let recorder = CoreRecorder<Int, Never>()
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
        let just = CoreRecorder<Int, Never>()
        Just(1).eraseToAnyPublisher().subscribe(just)
        #expect(just.events == [.subscription, .value(1), .finished])
        let empty = CoreRecorder<Int, Never>()
        Empty<Int, Never>().eraseToAnyPublisher().subscribe(empty)
        #expect(empty.events == [.subscription, .finished])
        let fail = CoreRecorder<Int, CoreTestError>()
        Fail<Int, CoreTestError>(error: .other).eraseToAnyPublisher().subscribe(fail)
        #expect(fail.events == [.subscription, .failure(.other)])
    }
}

@Suite struct CoreAnySubscriberTests {
    @Test func forwardsEverythingToTheWrappedSubscriber() {
        let recorder = CoreRecorder<Int, CoreTestError>(initialDemand: .max(2), demandPerValue: .max(3))
        let erased = AnySubscriber(recorder)
        #expect(erased.combineIdentifier == recorder.combineIdentifier)
        let subscription = ProbeSubscription()
        erased.receive(subscription: subscription)
        #expect(subscription.requests == [.max(2)])
        #expect(erased.receive(4) == .max(3))
        erased.receive(completion: .failure(.boom))
        #expect(recorder.events == [.subscription, .value(4), .failure(.boom)])
    }

    @Test func wrappingTwiceKeepsTheIdentity() {
        let recorder = CoreRecorder<Int, Never>()
        let once = AnySubscriber(recorder)
        let twice = AnySubscriber(once)
        #expect(twice.combineIdentifier == recorder.combineIdentifier)
        #expect(twice.description == once.description)
        _ = twice.receive(1)
        #expect(recorder.values == [1])
    }

    @Test func closureBasedSubscriber() {
        var events: [String] = []
        let subscriber = AnySubscriber<Int, CoreTestError>(
            receiveSubscription: { $0.request(.max(1)); events.append("subscription") },
            receiveValue: { events.append("value \($0)"); return .max(1) },
            receiveCompletion: { events.append("completion \($0)") })
        let subject = PassthroughSubject<Int, CoreTestError>()
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        #expect(events == ["subscription", "value 1", "value 2", "completion failure(BindingsTests.CoreTestError.boom)"])
        #expect(subscriber.description == "Anonymous AnySubscriber")
    }

    @Test func closureDefaultsRequestNothing() {
        let subscriber = AnySubscriber<Int, Never>()
        let subscription = ProbeSubscription()
        subscriber.receive(subscription: subscription)
        #expect(subscription.requests == [])
        #expect(subscriber.receive(1) == .none)
        subscriber.receive(completion: .finished)
        #expect(AnySubscriber<Int, Never>().combineIdentifier != subscriber.combineIdentifier)
    }

    @Test func wrapsASubject() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = CoreRecorder<Int, Never>()
        subject.subscribe(recorder)
        let subscriber = AnySubscriber(subject)
        let upstream = ProbeSubscription()
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
        let a = CoreRecorder<Int, Never>()
        let b = CoreRecorder<Int, Never>()
        #expect(a.combineIdentifier == a.combineIdentifier)
        #expect(a.combineIdentifier == CombineIdentifier(a))
        #expect(a.combineIdentifier != b.combineIdentifier)
        #expect(CombineIdentifier(a).description.hasPrefix("0x"))
    }

    @Test func freshIdentifiersAreUniqueAndApartFromObjects() {
        let ids = (0..<1_000).map { _ in CombineIdentifier() }
        #expect(Set(ids).count == 1_000)
        let object = CoreTracked()
        #expect(!ids.contains(CombineIdentifier(object)))
    }

    @Test func objectIdentifierIsTheAddress() {
        let object = CoreTracked()
        let address = UInt(bitPattern: ObjectIdentifier(object))
        #expect(CombineIdentifier(object).description == "0x" + String(address, radix: 16))
    }
}
