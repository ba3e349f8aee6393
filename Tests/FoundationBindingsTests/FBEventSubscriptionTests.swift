import Bindings
import BindingsTestSupport
import Foundation
import Synchronization
import Testing
@testable import FoundationBindings

/// The subscription engine shared by every Foundation publisher, driven by hand.
@Suite("FoundationBindings: EventSubscription")
struct FBEventSubscriptionTests {
    /// A subscription attached to `recorder`, with a teardown that counts its runs.
    private func make(
        _ recorder: TestRecorder<Int, Never>, policy: OverflowPolicy
    ) -> (EventSubscription<TestRecorder<Int, Never>>, stops: Counter) {
        let subscription = EventSubscription(downstream: recorder, policy: policy)
        recorder.receive(subscription: subscription)
        let stops = Counter()
        subscription.attach(stop: { stops.increment() })
        return (subscription, stops)
    }

    @Test func dropPolicyDropsValuesSentWithoutDemand() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        let (subscription, _) = make(recorder, policy: .drop)
        subscription.send(1)
        subscription.send(2)
        #expect(recorder.values == [1])
        recorder.request(.max(1))
        subscription.send(3)
        subscription.send(4)
        #expect(recorder.values == [1, 3])
    }

    @Test func keepLatestPolicyKeepsOnlyTheLastValueSentWithoutDemand() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: [.onCompletion, .onCancel])
        let (subscription, _) = make(recorder, policy: .keepLatest)
        subscription.send(1)
        subscription.send(2)
        subscription.send(3)
        #expect(recorder.values == [])
        recorder.request(.max(1))
        #expect(recorder.values == [3])
        subscription.send(4)
        #expect(recorder.values == [3])
        recorder.request(.max(2))
        #expect(recorder.values == [3, 4])
        subscription.send(5)
        #expect(recorder.values == [3, 4, 5])
    }

    @Test func bufferPolicyDeliversEverythingAsDemandArrivesThenTheCompletion() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: [.onCompletion, .onCancel])
        let (subscription, stops) = make(recorder, policy: .buffer)
        subscription.send(1)
        subscription.send(2)
        subscription.send(3)
        subscription.finish()
        #expect(stops.value == 1)
        #expect(recorder.events == [])
        recorder.request(.max(2))
        #expect(recorder.events == [.value(1), .value(2)])
        subscription.send(4)  // after finish: ignored
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])
        #expect(stops.value == 1)
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        let (subscription, _) = make(recorder, policy: .drop)
        for value in 1...5 { subscription.send(value) }
        #expect(recorder.values == [1, 2, 3, 4, 5])
    }

    @Test func finishingWithNothingWaitingCompletesAtOnceWithoutDemand() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: [.onCompletion, .onCancel])
        let (subscription, stops) = make(recorder, policy: .drop)
        subscription.finish()
        subscription.finish()
        #expect(recorder.events == [.finished])
        #expect(stops.value == 1)
    }

    @Test func cancelStopsTheSourceOnceAndDropsWaitingValues() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: [.onCompletion, .onCancel])
        let (subscription, stops) = make(recorder, policy: .buffer)
        subscription.send(1)
        recorder.subscription?.cancel()
        recorder.subscription?.cancel()
        subscription.send(2)
        subscription.finish()
        subscription.request(.unlimited)
        #expect(recorder.events == [])
        #expect(stops.value == 1)
        #expect(!subscription.isActive)
    }

    @Test func attachingAfterCancelStopsTheSourceAtOnce() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let subscription = EventSubscription(downstream: recorder, policy: .drop)
        recorder.receive(subscription: subscription)
        recorder.cancel()
        let stops = Counter()
        subscription.attach(stop: { stops.increment() })
        #expect(stops.value == 1)
    }

    @Test func theSubscriberAndTheSourceAreReleasedOnCancel() {
        weak var weakRecorder: TestRecorder<Int, Never>?
        weak var weakToken: Canary?
        do {
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
            weakRecorder = recorder
            let subscription = EventSubscription(downstream: recorder, policy: .drop)
            recorder.receive(subscription: subscription)
            subscription.attach(stop: Self.teardown(holding: Canary(), into: &weakToken))
            subscription.send(1)
            subscription.cancel()
            #expect(weakToken == nil)
            _ = subscription
        }
        #expect(weakRecorder == nil)
    }

    /// A teardown that holds `token` (and nothing else does).
    private static func teardown(holding token: Canary, into weakToken: inout Canary?) -> () -> Void {
        weakToken = token
        return { withExtendedLifetime(token) {} }
    }

    @Test func aValueSentFromInsideADeliveryArrivesAfterIt() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let (subscription, _) = make(recorder, policy: .drop)
        recorder.onValue = { value in
            if value == 1 {
                subscription.send(2)
                // Queue-drained: 2 waits until 1's delivery returns.
                #expect(recorder.values == [1])
            }
        }
        subscription.send(1)
        subscription.send(3)
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func cancellingFromInsideADeliveryStopsTheValuesBehindIt() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let (subscription, stops) = make(recorder, policy: .drop)
        recorder.onValue = { value in
            if value == 1 {
                subscription.send(2)
                recorder.cancel()
            }
        }
        subscription.send(1)
        subscription.send(3)
        #expect(recorder.values == [1])
        #expect(stops.value == 1)
    }

    @Test func valuesSentFromManyThreadsArriveOneAtATimeAndAllOfThem() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let (subscription, _) = make(recorder, policy: .drop)
        let detector = OverlapDetector()
        recorder.onValue = { _ in detector.watch {} }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 { subscription.send(thread * 1000 + index) }
        }
        #expect(recorder.values.count == 4000)
        #expect(Set(recorder.values).count == 4000)
        #expect(detector.overlaps == 0)
        // Each thread's values stay in the order it sent them.
        for thread in 0..<8 {
            let mine = recorder.values.filter { $0 / 1000 == thread }
            #expect(mine == (0..<500).map { thread * 1000 + $0 })
        }
    }

    @Test func cancellingWhileOtherThreadsSendAndRequestStopsDeliveries() {
        for _ in 0..<20 {
            let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1), releasesSubscription: [.onCompletion, .onCancel])
            let (subscription, stops) = make(recorder, policy: .buffer)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                if thread == 0 {
                    recorder.cancel()
                } else {
                    for index in 0..<200 {
                        subscription.send(index)
                        subscription.request(.max(1))
                    }
                }
            }
            let delivered = recorder.values.count
            subscription.send(-1)
            subscription.request(.max(1))
            #expect(recorder.values.count == delivered)
            #expect(stops.value == 1)
        }
    }
}
