import BindingsTestSupport
import Testing
@testable import Bindings

// The subscriber behind every binding, driven by hand: the subscription protocol, and a
// binding whose owner is gone while something else still holds it.

@Suite("Bindings: the binding subscriber")
struct BindSubscriberTests {
    @Test func requestsUnlimitedOnceAndCancelsASecondSubscription() {
        let label = BindLabel()
        let subscriber = BindingSubscriber(sink: label.reactive.log)
        let first = TestSubscription()
        let second = TestSubscription()
        subscriber.receive(subscription: first)
        subscriber.receive(subscription: second)
        #expect(first.log == [.request(.unlimited)])
        #expect(second.log == [.cancel])
        #expect(subscriber.receive("a") == .none)
        subscriber.receive(completion: .finished)
        subscriber.receive(completion: .finished)
        #expect(subscriber.receive("after") == .none)
        #expect(label.events == [.value("a"), .finished])
        subscriber.cancel()
        #expect(first.log == [.request(.unlimited)])   // finished: nothing to cancel
    }

    @Test func cancelBeforeTheSubscriptionCancelsItOnArrival() {
        let label = BindLabel()
        let subscriber = BindingSubscriber(sink: label.reactive.log)
        subscriber.cancel()
        let subscription = TestSubscription()
        subscriber.receive(subscription: subscription)
        #expect(subscription.log == [.cancel])
        _ = subscriber.receive("ignored")
        subscriber.receive(completion: .finished)
        #expect(label.events == [])
    }

    @Test func cancelReachesTheSubscriptionOnceAndStopsEverything() {
        let label = BindLabel()
        let subscriber = BindingSubscriber(sink: label.reactive.log)
        let subscription = TestSubscription()
        subscriber.receive(subscription: subscription)
        subscriber.cancel()
        subscriber.cancel()
        _ = subscriber.receive("ignored")
        subscriber.receive(completion: .finished)
        #expect(subscription.log == [.request(.unlimited), .cancel])
        #expect(label.events == [])
    }

    @Test func aValueForAnOwnerThatIsGoneEndsTheBinding() {
        let source = PassthroughSubject<String, Never>()
        var cancels = 0
        var stolen = Set<AnyCancellable>()
        weak var weakLabel: BindLabel?
        do {
            let label = BindLabel()
            weakLabel = label
            label.reactive.name <~ source.handleEvents(receiveCancel: { cancels += 1 })
            stolen = label.subscriptions   // something else now keeps the binding
        }
        #expect(weakLabel == nil)
        #expect(cancels == 0)
        source.send("x")                   // finds the owner gone
        #expect(cancels == 1)
        withExtendedLifetime(stolen) {}
    }

    @Test func aSetterThatCancelsItsOwnBindingGetsNothingMore() {
        let label = BindLabel()
        let source = PassthroughSubject<String, Never>()
        var binding: AnyCancellable?
        binding = BindingSink<BindLabel, String>(owner: label) { label, value in
            label.name = value
            if value == "stop" { binding?.cancel() }
        } <~ source
        source.send("a")
        source.send("stop")
        source.send("b")
        #expect(label.nameSets == ["a", "stop"])
    }
}
