import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// A Combine subscription to a property (`$property.subscribe`, `publisher(for:)`)
// registers on the subscribing thread, where reading the model is safe, and reads its
// initial value there; Combine lets any thread make the first request, which then reads
// nothing from the model. With `.initial`, the first demand gets the current value: the
// one read when subscribing, or a newer one set before that demand.

@Suite("Observation: a subscription's first demand")
struct ObsSubscriptionDemandTests {
    @Test func theFirstDemandGetsTheValueSetSinceSubscribing() {
        let person = ObsPerson()
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: .onCompletion)
        person.$count.subscribe(recorder)
        person.count = 1                    // no demand yet: not delivered...
        person.count = 2
        #expect(recorder.events == [])
        recorder.request(.max(1))           // ...but owed: the current value, 2
        #expect(recorder.events == [.value(2)])
        person.count = 3                    // no demand left: dropped
        recorder.request(.max(1))
        person.count = 4
        #expect(recorder.events == [.value(2), .value(4)])
        recorder.cancel()
    }

    @Test func withoutInitialNothingIsOwed() {
        let person = ObsPerson()
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: .onCompletion)
        person.publisher(for: \.count, options: [.new]).subscribe(recorder)
        person.count = 1
        recorder.request(.unlimited)
        person.count = 2
        #expect(recorder.events == [.value(2)])
        recorder.cancel()
    }

    @Test func aDerivedKeyPathOwesItsCurrentValueToo() {
        let person = ObsPerson()
        let recorder = TestRecorder<String, Never>(initialDemand: .none, releasesSubscription: .onCompletion)
        person.publisher(for: \.fullName).subscribe(recorder)
        person.lastName = "Byron"
        recorder.request(.unlimited)
        person.firstName = "Augusta"
        #expect(recorder.events == [.value("Ada Byron"), .value("Augusta Byron")])
        recorder.cancel()
    }

    /// The first request comes from another thread while the model's thread sets: the
    /// request reads nothing from the model (ThreadSanitizer would say otherwise), and
    /// the values arrive in order, ending with the last one.
    @Test func aFirstRequestFromAnotherThreadWhileTheModelIsSet() {
        for _ in 0..<50 {
            // The model stays on the test thread; only the recorder (which locks) is shared.
            let person = ObsPerson()
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: .onCompletion)
            person.$count.subscribe(recorder)
            let requested = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                recorder.request(.unlimited)
                requested.signal()
            }
            for value in 1...200 { person.count = value }
            requested.wait()
            person.count = 201
            let values = recorder.values
            #expect(values.last == 201)
            #expect(values == values.sorted() && Set(values).count == values.count, "in order, once each: \(values)")
            recorder.cancel()
        }
    }
}
