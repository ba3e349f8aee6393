import Bindings
import BindingsTestSupport
import Foundation
import Testing
@testable import FoundationBindings

@Suite("FoundationBindings: timer")
struct FBTimerTests {
    @Test func aTimerFiresThreeTimesOnItsQueueWithPrefix() {
        let queue = namedQueue("FBTimerTests.ticks")
        let recorder = TestRecorder<DispatchQueue.SchedulerTimeType, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let start = queue.now
        queue.reactive.timer(every: .milliseconds(10)).prefix(3).subscribe(recorder)

        #expect(recorder.wait(forCount: 4))
        let events = recorder.events
        #expect(events.count == 4)
        #expect(events.last == .finished)
        let ticks = recorder.values
        #expect(ticks.count == 3)
        // The first tick comes one interval after subscribing, and time moves forward.
        #expect(ticks.first.map { start.distance(to: $0) >= .milliseconds(10) } == true)
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0 < $1 })
        #expect(recorder.deliveryContexts.map(\.queue) == Array(repeating: "FBTimerTests.ticks", count: 4))
    }

    @Test func aTickWithoutDemandIsDroppedNotBuffered() {
        let queue = namedQueue("FBTimerTests.demand")
        let recorder = TestRecorder<DispatchQueue.SchedulerTimeType, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        queue.reactive.timer(every: .milliseconds(5)).subscribe(recorder)
        #expect(recorder.wait(forCount: 1))
        // Several ticks fire without demand.
        usleep(40_000)
        #expect(recorder.values.count == 1)
        let asked = queue.now
        recorder.request(.max(1))
        #expect(recorder.wait(forCount: 2))
        // The second value is a tick that fired after the request, not a stale one.
        #expect(recorder.values.count == 2)
        #expect(recorder.values.last.map { $0 >= asked } == true)
        recorder.cancel()
    }

    @Test func cancelStopsTheTimerAndReleasesTheSubscription() {
        let queue = namedQueue("FBTimerTests.cancel")
        let recorder = TestRecorder<DispatchQueue.SchedulerTimeType, Never>(releasesSubscription: [.onCompletion, .onCancel])
        queue.reactive.timer(every: .milliseconds(5)).subscribe(recorder)
        #expect(recorder.wait(forCount: 2))
        weak let subscription = recorder.subscription as AnyObject?
        // Cancelled on the timer's queue, so no tick is in flight.
        queue.sync { recorder.cancel() }
        let count = recorder.values.count
        usleep(30_000)
        #expect(recorder.values.count == count)
        #expect(eventually { subscription == nil })
    }

    @Test func anyScheduler() {
        let queue = namedQueue("FBTimerTests.init")
        let recorder = TestRecorder<DispatchQueue.SchedulerTimeType, Never>(releasesSubscription: [.onCompletion, .onCancel])
        Publishers.Timer(interval: .milliseconds(2), scheduler: queue).prefix(2).subscribe(recorder)
        #expect(recorder.wait(forCount: 3))
        #expect(recorder.events.count == 3)
        #expect(recorder.events.last == .finished)
    }
}
