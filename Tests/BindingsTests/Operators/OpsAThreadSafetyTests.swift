import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

@Suite("Operators: opsA thread safety")
struct OperatorsOpsAThreadSafetyTests {
    @Test func cancelFromAnotherThreadWhileValuesFlow() {
        for _ in 0..<50 {
            let subject = PassthroughSubject<Int, Never>()
            let cancels = LockedLog<Int>()
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
            subject
                .handleEvents(receiveCancel: { cancels.append(1) })
                .map { $0 + 1 }
                .filter { $0 > 0 }
                .compactMap { $0 }
                .removeDuplicates()
                .scan(0, +)
                .dropFirst()
                .handleEvents()
                .subscribe(recorder)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<200 { subject.send(value) }
                } else {
                    recorder.cancel()
                }
            }
            let seen = recorder.events.count
            subject.send(1_000)
            #expect(recorder.events.count == seen)
            #expect(cancels.count == 1)
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func prefixWithConcurrentSendersEndsOnce() {
        for _ in 0..<50 {
            let subject = PassthroughSubject<Int, Never>()
            let cancels = LockedLog<Int>()
            let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
            subject.handleEvents(receiveCancel: { cancels.append(1) }).prefix(5).subscribe(recorder)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                for value in 0..<20 { subject.send(index * 100 + value) }
            }
            let events = recorder.events
            #expect(events.count == 6)
            #expect(events.last == .finished)
            #expect(cancels.count == 1)
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func prependServesConcurrentRequestsInOrder() {
        for _ in 0..<20 {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: [.onCompletion, .onCancel])
            (100..<200).publisher.prepend(0..<100).subscribe(recorder)
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                for _ in 0..<100 { recorder.request(.max(1)) }
            }
            #expect(recorder.values == Array(0..<200))
            #expect(recorder.events.last == .finished)
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func handleEventsRequestsRaceWithCancel() {
        for _ in 0..<50 {
            let requests = LockedLog<Subscribers.Demand>()
            let cancels = LockedLog<Int>()
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: [.onCompletion, .onCancel])
            (0..<1_000).publisher
                .handleEvents(receiveCancel: { cancels.append(1) }, receiveRequest: { requests.append($0) })
                .prefix(500)
                .subscribe(recorder)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 2 {
                    recorder.cancel()
                } else {
                    for _ in 0..<100 { recorder.request(.max(1)) }
                }
            }
            let seen = recorder.values.count
            #expect(recorder.values == Array(0..<seen))
            #expect(seen <= requests.count)
            #expect(cancels.count == 1)
            #expect(recorder.violations.isEmpty)
        }
    }
}
