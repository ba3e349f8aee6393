import Bindings
import BindingsTestSupport
import Foundation
import Testing
@testable import FoundationBindings

@Suite("FoundationBindings: OperationQueue as a Scheduler")
struct FBOperationQueueSchedulerTests {
    /// A queue that runs one operation at a time, in the order they were added.
    private static func serialQueue(_ name: String) -> OperationQueue {
        let queue = OperationQueue()
        queue.name = name
        queue.maxConcurrentOperationCount = 1
        return queue
    }

    @Test func immediateActionsBecomeOperationsThatRunInOrder() {
        let queue = Self.serialQueue("FBOperationQueueSchedulerTests.immediate")
        let ran = LockedLog<Int>()
        let onQueue = LockedLog<Bool>()
        for index in 1...5 {
            queue.schedule {
                ran.append(index)
                onQueue.append(OperationQueue.current === queue)
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.items == [1, 2, 3, 4, 5])
        #expect(onQueue.items == [true, true, true, true, true])
    }

    @Test func anActionForLaterWaitsForItsDateThenBecomesAnOperation() {
        let queue = Self.serialQueue("FBOperationQueueSchedulerTests.after")
        let ran = LockedLog<String>()
        let ranAt = Locked<Date?>(nil)
        let onQueue = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        // Far enough for the checks below to come first even on a loaded machine.
        let due = queue.now.advanced(by: .milliseconds(200))
        queue.schedule(after: due) {
            ranAt.value = Date()
            onQueue.value = OperationQueue.current === queue
            ran.append("later")
            done.signal()
        }
        // Not an operation while it waits.
        #expect(queue.operationCount == 0)
        queue.schedule { ran.append("now") }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(ran.items == ["now", "later"])
        #expect(ranAt.value.map { $0 >= due.date } == true)
        #expect(onQueue.value == true)
    }

    /// A date long past (before 1970, or the epoch itself) is due at once, as any past
    /// date is: such actions waited forever (Dispatch read their deadline as "never").
    @Test func anActionForALongPastDateRunsAtOnce() {
        let queue = Self.serialQueue("FBOperationQueueSchedulerTests.pastDate")
        let dates: [Date] = [.distantPast, Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 0)]
        for date in dates {
            let ran = DispatchSemaphore(value: 0)
            queue.schedule(after: .init(date)) { ran.signal() }
            #expect(ran.wait(timeout: .now() + 5) == .success, "\(date)")
        }
        let ticked = DispatchSemaphore(value: 0)
        let repeating = queue.schedule(after: .init(.distantPast), interval: .seconds(60)) { ticked.signal() }
        #expect(ticked.wait(timeout: .now() + 5) == .success)
        repeating.cancel()
    }

    @Test func aRepeatingActionRepeatsUntilCancelled() {
        let queue = Self.serialQueue("FBOperationQueueSchedulerTests.repeating")
        let ticks = LockedLog<Int>()
        let cancellable = Locked<(any Cancellable)?>(nil)
        let cancelled = DispatchSemaphore(value: 0)
        let start = queue.now.advanced(by: .milliseconds(10))
        // Stored under the lock that the action reads it with; the first run is 10 ms away.
        cancellable.withLock { stored in
            stored = queue.schedule(after: start, interval: .milliseconds(5)) {
                ticks.append(ticks.count + 1)
                if ticks.count == 3 {
                    cancellable.value?.cancel()
                    cancelled.signal()
                }
            }
        }
        #expect(cancelled.wait(timeout: .now() + 5) == .success)
        // Ten intervals more: a repetition still going would have run again.
        usleep(50_000)
        queue.waitUntilAllOperationsAreFinished()
        #expect(ticks.items == [1, 2, 3])
    }

    @Test func aRepeatingActionNeverOverlapsItselfOnAConcurrentQueue() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let detector = OverlapDetector()
        let runs = Counter()
        // Each run lasts longer than the interval.
        let repeating = queue.schedule(after: queue.now, interval: .milliseconds(1)) {
            detector.watch { usleep(3_000) }
            runs.increment()
        }
        #expect(eventually(timeout: 5) { runs.value >= 5 })
        repeating.cancel()
        queue.waitUntilAllOperationsAreFinished()
        #expect(detector.overlaps == 0)
    }

    @Test(arguments: [1, 4])
    func receiveOnAnOperationQueueDeliversInOrderOnTheQueue(maxConcurrentOperations: Int) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = maxConcurrentOperations
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let onQueue = LockedLog<Bool>()
        recorder.onEvent = { _ in onQueue.append(OperationQueue.current === queue) }
        subject.receive(on: queue).subscribe(recorder)
        for value in 1...20 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(recorder.wait(forCount: 21))
        #expect(recorder.events == (1...20).map { .value($0) } + [.finished])
        // The hook runs just after the event is recorded, which ends the wait.
        #expect(eventually { onQueue.count == 21 })
        #expect(onQueue.items == Array(repeating: true, count: 21))
        #expect(recorder.violations == [])
    }

    @Test func theTimeTypeIsADateAndItsStrideSeconds() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1_000)
        let time = OperationQueue.SchedulerTimeType(date)
        #expect(time.date == date)
        #expect(time.advanced(by: .seconds(2)).date == Date(timeIntervalSinceReferenceDate: 1_002))
        #expect(time.distance(to: OperationQueue.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 1_000.5))) == 0.5)

        typealias Stride = OperationQueue.SchedulerTimeType.Stride
        #expect(Stride.seconds(1).timeInterval == 1)
        #expect(Stride.seconds(0.75).timeInterval == 0.75)
        #expect(Stride.milliseconds(5).timeInterval == 0.005)
        #expect(Stride.microseconds(250).timeInterval == 0.000_25)
        #expect(Stride.nanoseconds(-500_000_000).timeInterval == -0.5)
        let literal: Stride = 3
        #expect(literal * 2 == 6 && literal - 4 == -1 && literal + 0.5 == 3.5)
        #expect(Stride(exactly: -2)?.magnitude == -2)

        let encoded = try JSONEncoder().encode(time)
        #expect(try JSONDecoder().decode(OperationQueue.SchedulerTimeType.self, from: encoded) == time)
        let encodedStride = try JSONEncoder().encode(literal)
        #expect(try JSONDecoder().decode(Stride.self, from: encodedStride) == literal)
        #expect(Set([time, OperationQueue.SchedulerTimeType(date)]).count == 1)
        #expect(OperationQueue.main.minimumTolerance == 0)
    }
}
