import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("Operators: opsA chain")
struct OperatorsOpsAChainTests {
    @Test func severalOperatorsCompose() {
        let subject = PassthroughSubject<String, TestError>()
        let cancels = LockedLog<Int>()
        let recorder = TestRecorder<String, TestError>(releasesSubscription: [.onCompletion, .onCancel])
        subject
            .handleEvents(receiveCancel: { cancels.append(1) })
            .compactMap { Int($0) }          // 1 1 2 3 4 4 5 6 7
            .removeDuplicates()              // 1 2 3 4 5 6 7
            .filter { $0 != 3 }              // 1 2 4 5 6 7
            .map { $0 * 10 }                 // 10 20 40 50 60 70
            .scan(0, +)                      // 10 30 70 120 180 250
            .dropFirst()                     // 30 70 120 180 250
            .prepend(0)                      // 0 30 70 120 180 250
            .prefix(4)                       // 0 30 70 120, finished
            .map(\.description)
            .subscribe(recorder)
        for text in ["1", "x", "1", "2", "3", "4", "4", "5", "6", "7"] { subject.send(text) }
        #expect(recorder.events == [.value("0"), .value("30"), .value("70"), .value("120"), .finished])
        #expect(cancels.count == 1)
        #expect(recorder.violations.isEmpty)
    }

    @Test func demandFlowsThroughTheChain() {
        let requests = LockedLog<Subscribers.Demand>()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        (1...10).publisher
            .handleEvents(receiveRequest: { requests.append($0) })
            .filter { $0.isMultiple(of: 2) }
            .map { $0 * 100 }
            .dropFirst()
            .prefix(2)
            .subscribe(recorder)
        #expect(recorder.events == [.value(400)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(400), .value(600), .finished])
        #expect(recorder.violations.isEmpty)
        // The subscriber's two .max(1), dropFirst's .max(1), and one replacement per odd
        // number up to 5.
        #expect(requests.items.count == 6)
    }
}
