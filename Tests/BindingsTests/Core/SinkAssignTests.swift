import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

/// A target of `assign(to:on:)` that records each value assigned to it.
private final class AssignTarget {
    private(set) var history: [Int] = []
    var value = 0 { didSet { history.append(value) } }
}

/// A model whose property is assigned from.
private final class AssignModel: KeyValueObservable {
    @Observed var number = 0
}

/// What a sink's closures saw.
private typealias SinkEvent = RecordedEvent<Int, TestError>

/// A publisher that sends one value on request and completes when told, synchronously:
/// from inside the subscriber's own `receiveValue`, the completion arrives re-entrantly.
private final class FinishOnDemand: Publisher, Subscription {
    typealias Output = Int
    typealias Failure = Never
    private var downstream: AnySubscriber<Int, Never>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        downstream = AnySubscriber(subscriber)
        subscriber.receive(subscription: self)
    }
    func request(_ demand: Subscribers.Demand) { _ = downstream?.receive(1) }
    func finish() { downstream?.receive(completion: .finished) }
    func cancel() { downstream = nil }
}

@Suite struct CoreSinkTests {
    @Test func aCompletionFromInsideReceiveValueReleasesTheClosuresWhenItReturns() {
        let publisher = FinishOnDemand()
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        var events: [SinkEvent] = []
        let cancellable = publisher.sink(
            receiveCompletion: { _ in events.append(.completion(.finished)) },
            receiveValue: { [sentinel] value in
                events.append(.value(value))
                publisher.finish()                   // the completion, from in here
                withExtendedLifetime(sentinel) {}    // the closure still runs after it
                events.append(.value(value + 1))
            })
        sentinel = nil
        #expect(events == [.value(1), .completion(.finished), .value(2)])
        #expect(weakSentinel == nil, "released once the value's call returned")
        withExtendedLifetime(cancellable) {}
    }

    @Test func releasesItsClosuresOnceTheStreamCompletes() {
        let subject = PassthroughSubject<Int, TestError>()
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        var events: [SinkEvent] = []
        let cancellable = subject.sink(
            receiveCompletion: { [sentinel] in withExtendedLifetime(sentinel) {}; events.append(.completion($0)) },
            receiveValue: { [sentinel] in withExtendedLifetime(sentinel) {}; events.append(.value($0)) })
        sentinel = nil
        subject.send(1)
        #expect(weakSentinel != nil, "the closures hold it while the stream goes on")
        subject.send(completion: .failure(.boom))
        #expect(events == [.value(1), .completion(.failure(.boom))])
        #expect(weakSentinel == nil, "released at the completion, while the cancellable is still held")
        withExtendedLifetime(cancellable) {}
    }

    @Test func receivesJustValueThenFinished() {
        var events: [SinkEvent] = []
        let cancellable = Just(1).sink(
            receiveCompletion: { _ in events.append(.completion(.finished)) },
            receiveValue: { events.append(.value($0)) })
        #expect(events == [.value(1), .completion(.finished)])
        withExtendedLifetime(cancellable) {}
    }

    @Test func receivesFailure() {
        var events: [SinkEvent] = []
        let cancellable = Fail<Int, TestError>(error: .boom).sink(
            receiveCompletion: { events.append(.completion($0)) },
            receiveValue: { events.append(.value($0)) })
        #expect(events == [.completion(.failure(.boom))])
        withExtendedLifetime(cancellable) {}
    }

    @Test func receivesSubjectValuesAndCompletionOnce() {
        let subject = PassthroughSubject<Int, TestError>()
        var events: [SinkEvent] = []
        let cancellable = subject.sink(
            receiveCompletion: { events.append(.completion($0)) },
            receiveValue: { events.append(.value($0)) })
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.boom))
        subject.send(3)
        subject.send(completion: .finished)
        #expect(events == [.value(1), .value(2), .completion(.failure(.boom))])
        withExtendedLifetime(cancellable) {}
    }

    @Test func sinkWithOnlyReceiveValueForNeverFailing() {
        let subject = PassthroughSubject<String, Never>()
        var values: [String] = []
        let cancellable = subject.sink { values.append($0) }
        subject.send("a")
        subject.send("b")
        subject.send(completion: .finished)
        subject.send("c")
        #expect(values == ["a", "b"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func nothingAfterCancel() {
        let subject = PassthroughSubject<Int, TestError>()
        var events: [SinkEvent] = []
        let cancellable = subject.sink(
            receiveCompletion: { events.append(.completion($0)) },
            receiveValue: { events.append(.value($0)) })
        subject.send(1)
        cancellable.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(events == [.value(1)])
    }

    @Test func closuresReleasedWhenTheAnyCancellableIsReleased() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTracked: Canary?
        var cancellable: AnyCancellable?
        do {
            let tracked = Canary()
            weakTracked = tracked
            cancellable = subject.sink { tracked.value += $0 }
        }
        subject.send(5)
        #expect(weakTracked?.value == 5)
        cancellable = nil
        #expect(weakTracked == nil)
        #expect(subject.core.channel.observerCount == 0)
        withExtendedLifetime(cancellable) {}
    }

    @Test func closuresReleasedWhenReleasedOnAPublisherThatNeverCompletes() {
        weak var weakTracked: Canary?
        var cancellable: AnyCancellable?
        do {
            let tracked = Canary()
            weakTracked = tracked
            cancellable = Empty<Int, Never>(completeImmediately: false).sink(
                receiveCompletion: { _ in tracked.value += 1 }, receiveValue: { _ in })
        }
        #expect(weakTracked?.value == 0)
        cancellable = nil
        #expect(weakTracked == nil)
        withExtendedLifetime(cancellable) {}
    }

    @Test func requestsUnlimitedOnceAndCancelsASecondSubscription() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = TestSubscription()
        let second = TestSubscription()
        sink.receive(subscription: first)
        sink.receive(subscription: second)
        #expect(first.requests == [.unlimited])
        #expect(first.cancelCount == 0)
        #expect(second.requests == [])
        #expect(second.cancelCount == 1)
        sink.cancel()
        sink.cancel()
        #expect(first.cancelCount == 1)
        #expect(sink.description == "Sink")
    }

    @Test func subscriptionArrivingAfterCancelIsCancelled() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        sink.cancel()
        let subscription = TestSubscription()
        sink.receive(subscription: subscription)
        #expect(subscription.requests == [])
        #expect(subscription.cancelCount == 1)
    }

    @Test func completionIsDeliveredOnceAndNotCancelledAfterwards() {
        var completions = 0
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in completions += 1 }, receiveValue: { _ in })
        let subscription = TestSubscription()
        sink.receive(subscription: subscription)
        sink.receive(completion: .finished)
        sink.receive(completion: .finished)
        sink.cancel()
        #expect(completions == 1)
        #expect(subscription.cancelCount == 0)
        // A subscription arriving after the end is refused.
        let late = TestSubscription()
        sink.receive(subscription: late)
        #expect(late.cancelCount == 1)
        #expect(late.requests == [])
    }

    @Test func cancelReleasesTheClosuresWhileTheSinkIsKept() {
        let subject = PassthroughSubject<Int, TestError>()
        weak var weakTracked: Canary?
        let sink: Subscribers.Sink<Int, TestError>
        do {
            let tracked = Canary()
            weakTracked = tracked
            sink = Subscribers.Sink(
                receiveCompletion: { _ in tracked.value += 100 }, receiveValue: { tracked.value += $0 })
        }
        subject.subscribe(sink)
        subject.send(5)
        #expect(weakTracked?.value == 5)
        sink.cancel()
        // As in Combine: released at the cancel, though the sink itself lives on.
        #expect(weakTracked == nil)
        subject.send(6)
        sink.receiveValue(7)   // a no-op now
        withExtendedLifetime(sink) {}
    }

    @Test func aCancelFromInsideReceiveValueReleasesTheClosuresWhenItReturns() {
        let subject = PassthroughSubject<Int, TestError>()
        var sentinel: Canary? = Canary()
        weak let weakSentinel = sentinel
        var values: [Int] = []
        var sink: Subscribers.Sink<Int, TestError>?
        sink = Subscribers.Sink(
            receiveCompletion: { _ in },
            receiveValue: { [sentinel] value in
                values.append(value)
                sink?.cancel()
                withExtendedLifetime(sentinel) {}   // the closure still runs after it
                values.append(value * 10)
            })
        sentinel = nil
        subject.subscribe(sink!)
        subject.send(1)
        subject.send(2)
        #expect(values == [1, 10])
        #expect(weakSentinel == nil, "released once the value's call returned")
        withExtendedLifetime(sink) {}
    }

    @Test func aCancelFromAnotherThreadWaitsForTheCallUnderWayBeforeReleasing() {
        let subject = PassthroughSubject<Int, TestError>()
        let inside = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let log = LockedLog<String>()
        weak var weakTracked: Canary?
        let sink: Subscribers.Sink<Int, TestError>
        do {
            let tracked = Canary()
            weakTracked = tracked
            sink = Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { value in
                inside.signal()
                resume.wait()
                tracked.value += value   // after the cancel returned: still alive
                log.append("value \(tracked.value)")
            })
        }
        subject.subscribe(sink)
        let sender = Thread { subject.send(3) }
        sender.start()
        inside.wait()
        sink.cancel()
        log.append("cancelled")
        #expect(weakTracked != nil, "the call under way holds them")
        resume.signal()
        #expect(released { weakTracked == nil })
        #expect(log.items == ["cancelled", "value 3"])
        withExtendedLifetime(sink) {}
    }

    @Test func cancelFromInsideReceiveValue() {
        let subject = PassthroughSubject<Int, Never>()
        var values: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = subject.sink { value in
            values.append(value)
            if value == 2 { cancellable?.cancel() }
        }
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(values == [1, 2])
        #expect(subject.core.channel.observerCount == 0)
    }
}

@Suite struct CoreAssignTests {
    @Test func assignsJust() {
        let target = Canary()
        let cancellable = Just(5).assign(to: \.value, on: target)
        #expect(target.value == 5)
        withExtendedLifetime(cancellable) {}
    }

    @Test func assignsEachSubjectValueUntilCancelled() {
        let subject = PassthroughSubject<Int, Never>()
        let target = Canary()
        var history: [Int] = []
        let recorder = subject.sink { _ in history.append(target.value) }
        let cancellable = subject.assign(to: \.value, on: target)
        subject.send(1)
        subject.send(2)
        cancellable.cancel()
        subject.send(3)
        #expect(target.value == 2)
        // The recorder subscribed first, so it sees the value before this send's assignment.
        #expect(history == [0, 1, 2])
        withExtendedLifetime(recorder) {}
    }

    @Test func currentValueSubjectAssignsTheCurrentValueAtOnce() {
        let subject = CurrentValueSubject<Int, Never>(7)
        let target = Canary()
        let cancellable = subject.assign(to: \.value, on: target)
        #expect(target.value == 7)
        subject.value = 8
        #expect(target.value == 8)
        withExtendedLifetime(cancellable) {}
    }

    @Test func releasesTheObjectOnCancel() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Canary?
        let cancellable: AnyCancellable
        do {
            let target = Canary()
            weakTarget = target
            cancellable = subject.assign(to: \.value, on: target)
        }
        subject.send(4)
        #expect(weakTarget?.value == 4)
        cancellable.cancel()
        #expect(weakTarget == nil)
        #expect(subject.core.channel.observerCount == 0)
    }

    @Test func releasesTheObjectOnCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Canary?
        let assign: Subscribers.Assign<Canary, Int>
        do {
            let target = Canary()
            weakTarget = target
            assign = Subscribers.Assign(object: target, keyPath: \.value)
            subject.subscribe(assign)
        }
        subject.send(3)
        #expect(weakTarget?.value == 3)
        #expect(assign.object === weakTarget)
        subject.send(completion: .finished)
        #expect(weakTarget == nil)
        #expect(assign.object == nil)
        subject.send(9)
    }

    @Test func aSubjectsCompletionReleasesTheObjectWhileTheCancellableIsKept() {
        // `assign(to:on:)` of a subject takes its fused path (one closure on the channel);
        // the completion lets go of the object, as `Subscribers.Assign` does.
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: AssignTarget?
        let cancellable: AnyCancellable
        do {
            let target = AssignTarget()
            weakTarget = target
            cancellable = subject.assign(to: \.value, on: target)
        }
        subject.send(3)
        #expect(weakTarget?.history == [3])
        subject.send(completion: .finished)
        #expect(weakTarget == nil)
        #expect(subject.core.channel.observerCount == 0)
        withExtendedLifetime(cancellable) {}
    }

    @Test func assignsAPropertysCurrentValueThenEachSetInOrder() {
        let model = AssignModel()
        let target = AssignTarget()
        let cancellable = model.$number.assign(to: \.value, on: target)
        model.number = 1
        model.number = 2
        cancellable.cancel()
        model.number = 3
        #expect(target.history == [0, 1, 2])
    }

    @Test func assignsThroughAChainAndThroughAPublisherWithNoFusedPath() {
        let model = AssignModel()
        let doubled = AssignTarget()
        let erased = AssignTarget()
        let first = model.$number.map { $0 * 2 }.filter { $0 != 2 }.assign(to: \.value, on: doubled)
        let second = model.$number.eraseToAnyPublisher().assign(to: \.value, on: erased)
        model.number = 1
        model.number = 2
        #expect(doubled.history == [0, 4])
        #expect(erased.history == [0, 1, 2])
        withExtendedLifetime((first, second)) {}
    }

    @Test func requestsUnlimitedAndCancelsUpstreamOnce() {
        let target = Canary()
        let assign = Subscribers.Assign(object: target, keyPath: \Canary.value)
        let subscription = TestSubscription()
        let second = TestSubscription()
        assign.receive(subscription: subscription)
        assign.receive(subscription: second)
        #expect(subscription.requests == [.unlimited])
        #expect(second.cancelCount == 1)
        #expect(assign.receive(1) == .none)
        #expect(target.value == 1)
        assign.cancel()
        assign.cancel()
        #expect(subscription.cancelCount == 1)
        // After cancel, values change nothing.
        _ = assign.receive(2)
        #expect(target.value == 1)
        #expect(assign.description == "Assign Canary.")
    }

    @Test func dropsWhatArrivesBeforeItsSubscription() {
        // An upstream that breaks the rules: as in Combine, nothing is assigned, and a
        // completion then does not end the stream.
        let target = Canary()
        let assign = Subscribers.Assign(object: target, keyPath: \Canary.value)
        #expect(assign.receive(7) == .none)
        assign.receive(completion: .finished)
        #expect(target.value == 0)
        #expect(assign.object === target)
        let subscription = TestSubscription()
        assign.receive(subscription: subscription)
        #expect(subscription.requests == [.unlimited])
        _ = assign.receive(8)
        #expect(target.value == 8)
        assign.receive(completion: .finished)
        #expect(assign.object == nil)
        _ = assign.receive(9)
        #expect(target.value == 8)
    }
}
