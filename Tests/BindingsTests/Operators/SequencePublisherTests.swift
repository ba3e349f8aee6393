import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: sequence publisher (for prepend)")
struct OperatorsSequencePublisherTests {
    @Test func publishesEveryElementThenFinishes() {
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        [1, 2, 3].publisher.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])
        let empty = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        [Int]().publisher.subscribe(empty)
        #expect(empty.events == [.finished])
        #expect(empty.violations.isEmpty)
    }

    @Test func finishesRightAfterTheLastElementWithoutMoreDemand() {
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(2), releasesSubscription: [.onCompletion, .onCancel])
        [1, 2].publisher.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    @Test func reentrantRequestsKeepOrderWithoutRecursion() {
        let publisher = (1...5).publisher
        var subscription: (any Subscription)?
        let received = LockedLog<String>()
        var depth = 0
        var maxDepth = 0
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription = $0; $0.request(.max(1)) },
            receiveValue: { value in
                depth += 1
                maxDepth = max(maxDepth, depth)
                received.append("\(value)")
                subscription?.request(.max(1))
                depth -= 1
                return .none
            },
            receiveCompletion: { _ in received.append("finished") })
        publisher.subscribe(subscriber)
        #expect(received.items == ["1", "2", "3", "4", "5", "finished"])
        #expect(maxDepth == 1)
        subscription = nil
    }

    @Test func cancelStopsTheElements() {
        var cancelMe: TestRecorder<Int, Never>?
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        recorder.onValue = { value in
            if value == 2 { cancelMe?.cancel() }
        }
        cancelMe = recorder
        (1...5).publisher.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2)])
        cancelMe = nil
    }
}
