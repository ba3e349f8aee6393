import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// The subscriptions of the `try`, reducing and replacing operators are called from
// several threads at once: the upstream's deliveries on one, the subscriber's requests and
// cancels on others. These runs race them (the thread sanitizer watches in CI) and check
// what the subscriber saw.

@Suite("Operators: the item-2 operators' subscriptions under concurrent calls")
struct OperatorsItem2ThreadSafetyTests {
    @Test func cancelFromAnotherThreadWhileValuesFlowThroughTheTryOperators() {
        for _ in 0..<50 {
            let subject = PassthroughSubject<Int, Never>()
            let cancels = LockedLog<Int>()
            let recorder = TestRecorder<Int, any Error>()
            subject
                .handleEvents(receiveCancel: { cancels.append(1) })
                .tryMap { $0 + 1 }
                .tryFilter { $0 > 0 }
                .tryScan(0, +)
                .tryDrop { $0 < 3 }
                .subscribe(recorder)
            runConcurrently([
                { for value in 0..<200 { subject.send(value) } },
                { recorder.cancel() },
            ])
            let seen = recorder.events.count
            subject.send(1_000)
            #expect(recorder.events.count == seen)
            #expect(cancels.count == 1)
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func aRequestRacingTheEndDeliversTheResultExactlyOnce() {
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = TestRecorder<Int, Never>(initialDemand: .none)
            subject.reduce(0, +).subscribe(recorder)
            runConcurrently([
                {
                    for value in 1...10 { subject.send(value) }
                    subject.send(completion: .finished)
                },
                { recorder.request(.max(1)) },
            ])
            #expect(recorder.events == [.value(55), .finished])
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func aCancelRacingTheEndDeliversAllOrNothing() {
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = TestRecorder<Int, Never>()
            subject.collect().map(\.count).subscribe(recorder)
            runConcurrently([
                {
                    subject.send(1)
                    subject.send(completion: .finished)
                },
                { recorder.cancel() },
            ])
            // Nothing, or the value and the completion: never a completion without it.
            let events = recorder.events
            #expect(events == [] || events == [.value(1), .finished] || events == [.value(1)])
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func concurrentSendersToFirstGiveOneValue() {
        for _ in 0..<50 {
            let subject = PassthroughSubject<Int, Never>()
            let cancels = LockedLog<Int>()
            let recorder = TestRecorder<Int, Never>()
            subject.handleEvents(receiveCancel: { cancels.append(1) }).first().subscribe(recorder)
            runConcurrently(threads: 2) { index in
                for value in 0..<50 { subject.send(index * 100 + value) }
            }
            #expect(recorder.events.count == 2)
            #expect(recorder.events.last == .finished)
            #expect(cancels.count == 1)
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func aRequestRacingAFailureGivesOneReplacement() {
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, TestError>()
            let recorder = TestRecorder<Int, Never>(initialDemand: .none)
            subject.replaceError(with: 0).subscribe(recorder)
            runConcurrently([
                { subject.send(completion: .failure(.boom)) },
                { recorder.request(.max(1)) },
            ])
            #expect(recorder.events == [.value(0), .finished])
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func requestsFromSeveralThreadsAreAllPassedUpstream() {
        for _ in 0..<20 {
            let recorder = TestRecorder<[Int], Never>(initialDemand: .none)
            AnyPublisher((0..<200).publisher).collect(2).subscribe(recorder)
            runConcurrently(threads: 2) { _ in
                for _ in 0..<50 { recorder.request(.max(1)) }
            }
            #expect(recorder.values.flatMap { $0 } == Array(0..<200))
            #expect(recorder.events.last == .finished)
            #expect(recorder.violations.isEmpty)
        }
    }
}
