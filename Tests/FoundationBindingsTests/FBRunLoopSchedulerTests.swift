import Bindings
import BindingsTestSupport
import Foundation
import Testing
@testable import FoundationBindings

@Suite("FoundationBindings: RunLoop as a Scheduler")
struct FBRunLoopSchedulerTests {
    @Test func immediateActionsRunInOrderOnTheRunLoopThreadWhichTheyWake() {
        let loop = RunLoopThread(name: "FBRunLoopSchedulerTests.immediate")
        defer { #expect(loop.stop()) }
        let ran = LockedLog<Int>()
        let onLoopThread = LockedLog<Bool>()
        let done = DispatchSemaphore(value: 0)
        for index in 1...5 {
            loop.runLoop.schedule {
                ran.append(index)
                onLoopThread.append(loop.isRunLoopThread(.current))
                if index == 5 { done.signal() }
            }
        }
        // The run loop sleeps until the distant future: only a wake-up runs the actions.
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(ran.items == [1, 2, 3, 4, 5])
        #expect(onLoopThread.items == [true, true, true, true, true])
    }

    @Test func anActionForLaterRunsNoEarlierThanItsDateAndAfterImmediateOnes() {
        let loop = RunLoopThread(name: "FBRunLoopSchedulerTests.after")
        defer { #expect(loop.stop()) }
        let ran = LockedLog<String>()
        let ranAt = Locked<Date?>(nil)
        let due = Locked<Date?>(nil)
        let done = DispatchSemaphore(value: 0)
        // Both scheduled on the run loop's thread, which runs neither before this returns:
        // the order cannot depend on how fast the test thread goes.
        loop.sync {
            let runLoop = RunLoop.current
            let later = runLoop.now.advanced(by: .milliseconds(50))
            due.value = later.date
            runLoop.schedule(after: later) {
                ranAt.value = Date()
                ran.append("later")
                done.signal()
            }
            runLoop.schedule { ran.append("now") }
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(ran.items == ["now", "later"])
        #expect(ranAt.value.flatMap { ranAt in due.value.map { ranAt >= $0 } } == true)
    }

    @Test func aRepeatingActionRepeatsUntilCancelled() {
        let loop = RunLoopThread(name: "FBRunLoopSchedulerTests.repeating")
        defer { #expect(loop.stop()) }
        let ticks = LockedLog<Int>()
        let onLoopThread = LockedLog<Bool>()
        let cancellable = Locked<(any Cancellable)?>(nil)
        let cancelled = DispatchSemaphore(value: 0)
        // Scheduled on the run loop's thread, so that the cancellable is stored before the
        // timer can fire, however slow the machine.
        loop.sync {
            let runLoop = RunLoop.current
            cancellable.value = runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(10)), interval: .milliseconds(10)) {
                ticks.append(ticks.count + 1)
                onLoopThread.append(loop.isRunLoopThread(.current))
                // Cancelled from the third run, on the run loop's thread: no tick is in flight.
                if ticks.count == 3 {
                    cancellable.value?.cancel()
                    cancelled.signal()
                }
            }
        }
        #expect(cancelled.wait(timeout: .now() + 5) == .success)
        // Five intervals more: a timer still running would have fired again.
        usleep(50_000)
        loop.sync {}
        #expect(ticks.items == [1, 2, 3])
        #expect(onLoopThread.items == [true, true, true])
    }

    @Test func releasingTheRepeatingActionsCancellableInvalidatesItsTimer() {
        let loop = RunLoopThread(name: "FBRunLoopSchedulerTests.release")
        let runLoop = loop.runLoop
        let ticks = Counter()
        var repeating: (any Cancellable)? = runLoop.schedule(after: runLoop.now, interval: .milliseconds(5)) {
            ticks.increment()
        }
        #expect(eventually(timeout: 5) { ticks.value >= 2 })
        withExtendedLifetime(repeating) {}
        repeating = nil
        // The run loop ends once its mode is empty: the timer is gone from it.
        #expect(loop.stop())
    }

    @Test func receiveOnARunLoopDeliversInOrderOnItsThread() {
        let loop = RunLoopThread(name: "FBRunLoopSchedulerTests.receiveOn")
        defer { #expect(loop.stop()) }
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        subject.receive(on: loop.runLoop).subscribe(recorder)
        for value in 1...5 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(recorder.wait(forCount: 6))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .value(4), .value(5), .finished])
        #expect(recorder.deliveryContexts.map(loop.isRunLoopThread) == Array(repeating: true, count: 6))
        #expect(recorder.violations == [])
    }

    @Test func theTimeTypeIsADateAndItsStrideSeconds() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1_000)
        let time = RunLoop.SchedulerTimeType(date)
        #expect(time.date == date)
        #expect(time.advanced(by: .milliseconds(1_500)).date == Date(timeIntervalSinceReferenceDate: 1_001.5))
        #expect(time.distance(to: RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 998))) == -2)
        #expect(time.advanced(by: 0.25) > time)

        typealias Stride = RunLoop.SchedulerTimeType.Stride
        #expect(Stride.seconds(3).timeInterval == 3)
        #expect(Stride.seconds(0.5).magnitude == 0.5)
        #expect(Stride.milliseconds(250).timeInterval == 0.25)
        #expect(Stride.microseconds(-1_500).timeInterval == -0.0015)
        #expect(Stride.nanoseconds(2_000_000_000).timeInterval == 2)
        let fromIntegerLiteral: Stride = 2
        let fromFloatLiteral: Stride = 0.125
        #expect(fromIntegerLiteral.timeInterval == 2 && fromFloatLiteral.timeInterval == 0.125)
        #expect(Stride(exactly: 7)?.timeInterval == 7)
        #expect(Stride(exactly: UInt64.max - 1) == nil)
        var stride: Stride = 1.5
        stride += 1
        stride *= 2
        stride -= 0.5
        #expect(stride == 4.5)
        #expect(-stride == -4.5 && (stride - 5).magnitude == -0.5)
        #expect(Stride(0.1) < Stride(0.2))

        let encoded = try JSONEncoder().encode(time)
        #expect(try JSONDecoder().decode(RunLoop.SchedulerTimeType.self, from: encoded) == time)
        let encodedStride = try JSONEncoder().encode(stride)
        #expect(try JSONDecoder().decode(Stride.self, from: encodedStride) == stride)
        #expect(Set([time, time, RunLoop.SchedulerTimeType(.distantPast)]).count == 2)
        #expect(RunLoop.main.minimumTolerance == 0)
        let before = Date()
        #expect(RunLoop.main.now.date >= before)
    }
}
