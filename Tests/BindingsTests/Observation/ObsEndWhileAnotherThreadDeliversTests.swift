import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// A model released on one thread while another thread delivers one of its values: the
// observers hear the end from the delivering thread, after the value in flight, never
// while one of their callbacks runs on the other thread (a subscriber is called one
// event at a time, as in Combine).

@Suite("Observation: the model goes while another thread delivers")
struct ObsEndWhileAnotherThreadDeliversTests {
    @Test func theEndWaitsForTheValueInFlight() {
        let holder = Locked<ObsPerson?>(ObsPerson())   // the only reference to the model
        // Each of the recorder's calls is watched for overlap; a value's call, once
        // recorded, signals `entered` and waits for `resume`.
        let entered = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let calls = OverlapDetector()
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: .onCompletion) { event in
            calls.watch {
                guard case .value = event else { return }
                entered.signal()
                resume.wait()
            }
        }
        holder.value!.$count.subscribe(recorder)   // no demand yet: 0 is owed
        // Another thread's first request delivers the owed value, and waits inside it.
        let delivering = Thread { recorder.request(.max(5)) }
        delivering.start()
        entered.wait()
        // The model deinitialises here, during that delivery (taken out under the lock,
        // dropped after it).
        _ = holder.withLock { $0.take() }
        #expect(recorder.events == [.value(0)], "the end is not delivered while the value is")
        resume.signal()
        recorder.wait(forCount: 2, timeout: 5)
        #expect(recorder.events == [.value(0), .finished])
        #expect(calls.overlaps == 0)
    }
}
