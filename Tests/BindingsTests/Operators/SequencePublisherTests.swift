import Testing
@testable import Bindings

@Suite("Operators: sequence publisher (for prepend)")
struct OperatorsSequencePublisherTests {
    @Test func publishesEveryElementThenFinishes() {
        let recorder = OpsARecorder<Int, Never>()
        [1, 2, 3].publisher.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])
        let empty = OpsARecorder<Int, Never>()
        [Int]().publisher.subscribe(empty)
        #expect(empty.events == [.finished])
        #expect(empty.violations.isEmpty)
    }

    @Test func finishesRightAfterTheLastElementWithoutMoreDemand() {
        let recorder = OpsARecorder<Int, Never>(demand: .max(2))
        [1, 2].publisher.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2), .finished])
    }

    @Test func reentrantRequestsKeepOrderWithoutRecursion() {
        let publisher = (1...5).publisher
        var subscription: (any Subscription)?
        let received = OpsALog<String>()
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
        var cancelMe: OpsARecorder<Int, Never>?
        let recorder = OpsARecorder<Int, Never>(onValue: { value in
            if value == 2 { cancelMe?.cancel() }
            return .none
        })
        cancelMe = recorder
        (1...5).publisher.subscribe(recorder)
        #expect(recorder.events == [.value(1), .value(2)])
        cancelMe = nil
    }
}
