import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

@Suite("Scheduling: schedulers")
struct SchedSchedulerTests {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    @Test func immediateSchedulerRunsEveryFormAtOnceInOrder() {
        let scheduler = ImmediateScheduler.shared
        var log: [String] = []
        scheduler.schedule { log.append("plain") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { log.append("after") }
        let repeating = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { log.append("repeating") }
        repeating.cancel()
        #expect(log == ["plain", "after", "repeating"])
        #expect(ImmediateScheduler.SchedulerTimeType.Stride.seconds(5) == 0)
        #expect(scheduler.now.distance(to: scheduler.now.advanced(by: 7)) == 0)
        #expect(scheduler.minimumTolerance == 0)
    }

    @Test func dispatchStrideCountsNanoseconds() {
        #expect(Stride.seconds(2).magnitude == 2_000_000_000)
        #expect(Stride.seconds(0.25).magnitude == 250_000_000)
        #expect(Stride.milliseconds(3).magnitude == 3_000_000)
        #expect(Stride.microseconds(4).magnitude == 4_000)
        #expect(Stride.nanoseconds(5).magnitude == 5)
        let literalSeconds: Stride = 2
        let literalFraction: Stride = 0.5
        #expect(literalSeconds == .seconds(2))
        #expect(literalFraction == .milliseconds(500))
        #expect(Stride.milliseconds(300) + .milliseconds(200) == .milliseconds(500))
        #expect(Stride.milliseconds(300) - .milliseconds(500) == .milliseconds(-200))
        // Seconds, as the integer literal and as Combine's `Stride(exactly:)`.
        #expect(Stride(exactly: 2) == .seconds(2))
        #expect(Stride(exactly: UInt8(7)) == .seconds(7))
        #expect(Stride(exactly: Int.max) == nil)
        #expect(Stride(.milliseconds(8)) == .milliseconds(8))
        #expect(Stride(.never).magnitude == .max)
        #expect(Stride.seconds(Int.max).magnitude == .max)
        #expect(Stride.seconds(-Double.infinity).magnitude == .min)
        #expect(Stride.nanoseconds(.max) + .nanoseconds(1) == .nanoseconds(.max))
        #expect(Stride.milliseconds(1) < .milliseconds(2))
    }

    @Test func dispatchTimeAdvancesAndMeasuresBothWays() {
        let start = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 5_000_000_000))
        let later = start.advanced(by: .milliseconds(1500))
        #expect(later.dispatchTime.uptimeNanoseconds == 6_500_000_000)
        #expect(start.distance(to: later) == .milliseconds(1500))
        #expect(later.distance(to: start) == .milliseconds(-1500))
        #expect(start < later)
        #expect(start.advanced(by: .milliseconds(-500)).dispatchTime.uptimeNanoseconds == 4_500_000_000)
        #expect(start == DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 5_000_000_000)))
    }

    @Test func distanceSaturatesInsteadOfOverflowing() {
        let early = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1))
        let farFuture = DispatchQueue.SchedulerTimeType(.distantFuture)
        #expect(early.distance(to: farFuture) == .nanoseconds(.max))
        #expect(farFuture.distance(to: early) == .nanoseconds(.min))
        #expect(farFuture.distance(to: farFuture) == .nanoseconds(0))
    }

    @Test func dispatchQueueRunsScheduledActionsInOrderOnTheQueue() {
        let queue = DispatchQueue(label: "sched.order")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let log = LockedLog<Int>()
        for index in 0..<100 {
            queue.schedule { log.append(DispatchQueue.getSpecific(key: key) == 1 ? index : -1) }
        }
        queue.sync {}
        #expect(log.items == Array(0..<100))
    }

    @Test func dispatchQueueScheduleAfterWaitsForTheDateAndHonoursTheGroup() {
        let queue = DispatchQueue(label: "sched.after")
        let group = DispatchGroup()
        let date = queue.now.advanced(by: .milliseconds(20))
        let log = LockedLog<Bool>()
        queue.schedule(after: date, tolerance: .zero, options: .init(group: group)) {
            log.append(queue.now >= date)
        }
        queue.schedule(options: .init(qos: .utility, group: group)) { log.append(true) }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(log.items == [true, true])
    }

    @Test func dispatchQueueRepeatsUntilCancelled() {
        let queue = DispatchQueue(label: "sched.repeat")
        let log = LockedLog<Int>()
        let done = DispatchSemaphore(value: 0)
        let holder = LockedLog<any Cancellable>()
        // Scheduled on the queue itself, so that the first tick (which runs there) cannot
        // come before the cancellable is in `holder`, however late this thread runs.
        queue.sync {
            let timer = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
                log.append(log.items.count + 1)
                if log.items.count == 3 {
                    holder.items.first?.cancel()
                    done.signal()
                }
            }
            holder.append(timer)
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        // Three more intervals on the same queue: a cancelled timer must not fire again.
        let settled = DispatchSemaphore(value: 0)
        queue.asyncAfter(deadline: .now() + .milliseconds(20)) { settled.signal() }
        #expect(settled.wait(timeout: .now() + 10) == .success)
        #expect(log.items == [1, 2, 3])
    }
}

@Suite("Scheduling: TestScheduler")
struct SchedTestSchedulerTests {
    @Test func runsActionsInTimeOrderThenSchedulingOrder() {
        let scheduler = TestScheduler()
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(30))) { log.append("30ms") }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10))) { log.append("10ms a") }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10))) { log.append("10ms b") }
        scheduler.schedule { log.append("now") }
        #expect(log == [])
        scheduler.advance()
        #expect(log == ["now"])
        scheduler.advance(by: .milliseconds(9))
        #expect(log == ["now"])
        scheduler.advance(by: .milliseconds(21))
        #expect(log == ["now", "10ms a", "10ms b", "30ms"])
        #expect(scheduler.elapsedMilliseconds == 30)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func actionsSeeTheirOwnTimeAndMayScheduleMore() {
        let scheduler = TestScheduler()
        var log: [Int] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10))) {
            log.append(scheduler.elapsedMilliseconds)
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(5))) {
                log.append(scheduler.elapsedMilliseconds)
            }
        }
        scheduler.advance(by: .milliseconds(100))
        #expect(log == [10, 15])
        #expect(scheduler.elapsedMilliseconds == 100)
    }

    @Test func repeatsUntilCancelled() {
        let scheduler = TestScheduler()
        var log: [Int] = []
        let timer = scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10)), interval: .milliseconds(20)) {
            log.append(scheduler.elapsedMilliseconds)
        }
        scheduler.advance(by: .milliseconds(55))
        #expect(log == [10, 30, 50])
        timer.cancel()
        scheduler.advance(by: .milliseconds(100))
        #expect(log == [10, 30, 50])
        #expect(scheduler.pendingCount == 0)
    }
}
