import Bindings
import BindingsTestSupport
import Foundation
import Testing
@testable import FoundationBindings

@Suite("FoundationBindings: Timer.publish")
struct FBTimerPublishTests {
    /// Whether `dates` strictly increase.
    private static func increase(_ dates: [Date]) -> Bool {
        zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 }
    }

    @Test func keepsWhatItWasMadeWith() {
        let runLoop = RunLoop.main
        let publisher: Timer.TimerPublisher = Timer.publish(every: 0.5, tolerance: 0.1, on: runLoop, in: .common)
        #expect(publisher.interval == 0.5)
        #expect(publisher.tolerance == 0.1)
        #expect(publisher.runLoop === runLoop)
        #expect(publisher.mode == .common)
        #expect(publisher.options == nil)
        #expect(Timer.publish(every: 1, on: runLoop, in: .default).tolerance == nil)
    }

    @Test func nothingBeforeConnectThenTicksOnTheRunLoopThread() {
        let loop = RunLoopThread(name: "FBTimerPublishTests.connect")
        defer { #expect(loop.stop()) }
        let publisher = Timer.publish(every: 0.01, on: loop.runLoop, in: .default)
        let recorder = TestRecorder<Date, Never>(initialDemand: .max(3), releasesSubscription: [.onCompletion, .onCancel])
        publisher.subscribe(recorder)
        // Five intervals without a connection.
        usleep(50_000)
        loop.sync {}
        #expect(recorder.events.isEmpty)

        let connected = Date()
        let connection = UncheckedBox(publisher.connect())
        #expect(recorder.wait(forCount: 3))
        loop.sync { connection.value.cancel() }
        let dates = recorder.values
        #expect(dates.count == 3)
        #expect(Self.increase(dates))
        // The first tick comes one interval after connecting.
        #expect(dates.first.map { $0.timeIntervalSince(connected) >= 0.009 } == true)
        #expect(recorder.deliveryContexts.map(loop.isRunLoopThread) == [true, true, true])
        #expect(recorder.violations == [])
    }

    @Test func aSubscriberWithADemandOfTwoGetsExactlyTwoTicks() {
        let loop = RunLoopThread(name: "FBTimerPublishTests.demand")
        defer { #expect(loop.stop()) }
        let publisher = Timer.publish(every: 0.005, on: loop.runLoop, in: .default)
        let recorder = TestRecorder<Date, Never>(initialDemand: .max(2), releasesSubscription: [.onCompletion, .onCancel])
        publisher.subscribe(recorder)
        let connection = UncheckedBox(publisher.connect())
        #expect(recorder.wait(forCount: 2))
        // Ten ticks more fire without demand: dropped, not buffered.
        usleep(50_000)
        loop.sync {}
        #expect(recorder.values.count == 2)
        #expect(recorder.events.allSatisfy { if case .value = $0 { true } else { false } })

        let asked = Date()
        recorder.request(.max(1))
        #expect(recorder.wait(forCount: 3))
        loop.sync { connection.value.cancel() }
        // The third value is a tick after the request, not one kept from before.
        #expect(recorder.values.count == 3)
        #expect(recorder.values.last.map { $0 >= asked } == true)
        #expect(recorder.violations == [])
    }

    @Test func cancellingTheConnectionStopsTheTicks() {
        let loop = RunLoopThread(name: "FBTimerPublishTests.cancel")
        let publisher = Timer.publish(every: 0.005, on: loop.runLoop, in: .default)
        let recorder = TestRecorder<Date, Never>(releasesSubscription: [.onCompletion, .onCancel])
        publisher.subscribe(recorder)
        let connection = UncheckedBox(publisher.connect())
        #expect(recorder.wait(forCount: 2))
        // On the run loop's thread: no tick is in flight.
        loop.sync { connection.value.cancel() }
        let delivered = recorder.values
        usleep(50_000)
        loop.sync {}
        #expect(recorder.values == delivered)
        #expect(recorder.events.count == delivered.count)   // no completion either
        // The timer left the run loop: with nothing else in its mode, the run loop ends.
        #expect(loop.stop())
        recorder.cancel()
    }

    @Test func everySubscriberReceivesTheSameTicks() {
        let loop = RunLoopThread(name: "FBTimerPublishTests.subscribers")
        defer { #expect(loop.stop()) }
        let publisher = Timer.publish(every: 0.005, on: loop.runLoop, in: .default)
        let first = TestRecorder<Date, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let second = TestRecorder<Date, Never>(releasesSubscription: [.onCompletion, .onCancel])
        publisher.subscribe(first)
        publisher.subscribe(second)
        let connection = UncheckedBox(publisher.connect())
        #expect(first.wait(forCount: 3))
        loop.sync { connection.value.cancel() }
        #expect(first.values.count >= 3)
        #expect(first.values == second.values)
        #expect(Self.increase(first.values))
        first.cancel()
        second.cancel()
    }

    @Test func aSubscriberThatCancelsGetsNoMoreTicks() {
        let loop = RunLoopThread(name: "FBTimerPublishTests.subscriberCancels")
        defer { #expect(loop.stop()) }
        let publisher = Timer.publish(every: 0.005, on: loop.runLoop, in: .default)
        let leaving = TestRecorder<Date, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let staying = TestRecorder<Date, Never>(releasesSubscription: [.onCompletion, .onCancel])
        publisher.subscribe(leaving)
        publisher.subscribe(staying)
        weak let subscription = leaving.subscription as AnyObject?
        let connection = UncheckedBox(publisher.connect())
        #expect(leaving.wait(forCount: 1))
        loop.sync { leaving.cancel() }
        let delivered = leaving.values
        #expect(staying.wait(forCount: delivered.count + 2))
        loop.sync { connection.value.cancel() }
        #expect(leaving.values == delivered)
        #expect(subscription == nil)
        staying.cancel()
    }

    @Test func autoconnectConnectsForTheFirstSubscriberAndStopsAfterTheLast() {
        let loop = RunLoopThread(name: "FBTimerPublishTests.autoconnect")
        defer { #expect(loop.stop()) }
        // In the common modes, as Combine code usually asks: the default mode is one.
        let publisher = Timer.publish(every: 0.005, on: loop.runLoop, in: .common)
        // Subscribed to the timer itself, it sees every tick of any connection.
        let watcher = TestRecorder<Date, Never>(releasesSubscription: [.onCompletion, .onCancel])
        publisher.subscribe(watcher)
        let recorder = TestRecorder<Date, Never>(releasesSubscription: [.onCompletion, .onCancel])
        publisher.autoconnect().subscribe(recorder)
        #expect(recorder.wait(forCount: 3))
        // The last subscriber leaves, on the run loop's thread: the timer is invalidated.
        loop.sync { recorder.cancel() }
        let ticks = watcher.values.count
        #expect(ticks >= 3)
        usleep(50_000)
        loop.sync {}
        #expect(watcher.values.count == ticks)
        #expect(Self.increase(recorder.values))
        watcher.cancel()
    }
}
