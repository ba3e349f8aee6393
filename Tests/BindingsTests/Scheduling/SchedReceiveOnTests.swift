import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

/// Runs `onDeinit` when it goes.
private final class DeinitProbe: Sendable {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

/// A failure that runs `onDeinit` when it goes.
private final class DeinitProbeError: Error, Sendable {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

@Suite("Scheduling: receive(on:)")
struct SchedReceiveOnTests {
    typealias Event = RecordedEvent<Int, TestError>

    @Test func aDeliveredValueIsReleasedOutsideTheOperatorsLock() {
        // Once sent, the value waiting on the queue is the only reference to the probe, so
        // its `deinit` runs where the operator lets go of it. From there another thread
        // cancels, which takes the operator's lock: it must get it while the `deinit`
        // waits (when the value was released under the lock, it waited the 5 s out).
        let queue = DispatchQueue(label: "receive-on-release")
        let subject = PassthroughSubject<DeinitProbe, Never>()
        let cancellable = Locked<AnyCancellable?>(nil)
        let cancelledInTime = Locked<Bool?>(nil)
        let deinitDone = DispatchSemaphore(value: 0)
        cancellable.value = subject.receive(on: queue).sink { _ in }
        queue.suspend()   // the send returns, and lets go of its copy, before the delivery
        subject.send(DeinitProbe {
            let cancelled = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                cancellable.value?.cancel()
                cancelled.signal()
            }
            cancelledInTime.value = cancelled.wait(timeout: .now() + 5) == .success
            deinitDone.signal()
        })
        queue.resume()
        deinitDone.wait()
        #expect(cancelledInTime.value == true)
    }

    @Test func aDeliveredFailureIsReleasedOutsideTheOperatorsLock() {
        // As above, for the completion: once `Fail` has sent it, the completion waiting
        // on the queue holds the only reference to the error (`mapError` passes on
        // another, and keeps nothing). Its `deinit` asks the operator for more from
        // another thread, which takes the operator's lock (the subscriber keeps its
        // subscription after the completion).
        let queue = DispatchQueue(label: "receive-on-failure-release")
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        let answeredInTime = Locked<Bool?>(nil)
        let deinitDone = DispatchSemaphore(value: 0)
        queue.suspend()
        Fail<Int, DeinitProbeError>(error: DeinitProbeError { [recorder] in
            let answered = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                recorder.subscription?.request(.max(1))
                answered.signal()
            }
            answeredInTime.value = answered.wait(timeout: .now() + 5) == .success
            deinitDone.signal()
        }).receive(on: queue).mapError { _ in TestError.boom }.subscribe(recorder)
        queue.resume()
        deinitDone.wait()
        #expect(answeredInTime.value == true)
        #expect(recorder.events == [.failure(.boom)])
    }

    @Test func immediateSchedulerDeliversSynchronouslyInOrder() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        subject.receive(on: ImmediateScheduler.shared).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.events == [.value(1), .value(2)])
        subject.send(completion: .failure(.boom))
        subject.send(3)
        #expect(recorder.events == [.value(1), .value(2), .failure(.boom)])
    }

    @Test func immediateSchedulerQueuesReentrantValuesBehindTheCurrentOne() {
        let upstream = TestPublisher<Int, Never>()
        var depth = 0
        var log: [String] = []
        let sink = upstream.receive(on: ImmediateScheduler.shared).sink { value in
            depth += 1
            log.append("begin \(value) at depth \(depth)")
            if value == 1 { upstream.send(2) }
            log.append("end \(value)")
            depth -= 1
        }
        upstream.send(1)
        #expect(log == ["begin 1 at depth 1", "end 1", "begin 2 at depth 1", "end 2"])
        withExtendedLifetime(sink) {}
    }

    @Test func testSchedulerDeliversValuesAndCompletionOnlyWhenItRuns() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        upstream.receive(on: scheduler).subscribe(recorder)
        #expect(upstream.log == [.subscribed, .request(.unlimited)])

        upstream.send(1)
        upstream.send(2)
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(recorder.events == [.value(1), .value(2)])

        upstream.send(3)
        upstream.send(completion: .finished)
        upstream.send(4)   // after the completion: ignored
        #expect(recorder.events == [.value(1), .value(2)])
        scheduler.advance()
        #expect(recorder.events == [.value(1), .value(2), .value(3), .finished])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func demandGoesUpstreamAndDemandFromValuesFollowsTheirDelivery() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(initialDemand: .max(2), demandPerValue: .max(1), releasesSubscription: [])
        upstream.receive(on: scheduler).subscribe(recorder)
        #expect(upstream.log == [.subscribed, .request(.max(2))])
        upstream.send(1)
        #expect(upstream.log == [.subscribed, .request(.max(2))])
        scheduler.advance()
        #expect(recorder.events == [.value(1)])
        #expect(upstream.log == [.subscribed, .request(.max(2)), .request(.max(1))])
        recorder.request(.max(5))
        #expect(upstream.log == [.subscribed, .request(.max(2)), .request(.max(1)), .request(.max(5))])
    }

    @Test func cancelDropsPendingValuesAndCompletionAndCancelsUpstream() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        upstream.receive(on: scheduler).subscribe(recorder)
        upstream.send(1)
        scheduler.advance()
        upstream.send(2)
        upstream.send(completion: .finished)
        recorder.cancel()
        scheduler.advance()
        #expect(recorder.events == [.value(1)])
        #expect(upstream.log == [.subscribed, .request(.unlimited)])   // upstream already finished

        let second = TestPublisher<Int, TestError>()
        let secondRecorder = TestRecorder<Int, TestError>(releasesSubscription: [])
        second.receive(on: scheduler).subscribe(secondRecorder)
        second.send(1)
        secondRecorder.cancel()
        second.send(2)
        scheduler.advance()
        #expect(secondRecorder.events == [])
        #expect(second.log == [.subscribed, .request(.unlimited), .cancel])
    }

    @Test func serialDispatchQueueDeliversEverythingInOrderOnTheQueue() {
        let queue = DispatchQueue(label: "sched.receiveOn")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let offQueue = LockedLog<Event>()
        let finished = DispatchSemaphore(value: 0)
        let recorder = TestRecorder<Int, TestError>(releasesSubscription: []) { event in
            if DispatchQueue.getSpecific(key: key) != 7 { offQueue.append(event) }
            if case .value = event {} else { finished.signal() }
        }
        let subject = PassthroughSubject<Int, TestError>()
        subject.receive(on: queue).subscribe(recorder)
        for value in 0..<1_000 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(recorder.events == (0..<1_000).map { Event.value($0) } + [.finished])
        #expect(offQueue.items.isEmpty)
    }

    @Test func cancellingOnTheQueueStopsTheDeliveriesAlreadyScheduled() {
        let queue = DispatchQueue(label: "sched.receiveOn.cancel")
        let holder = LockedLog<TestRecorder<Int, Never>>()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: []) { event in
            if event == .value(10) { holder.items.first?.cancel() }
        }
        holder.append(recorder)
        let subject = PassthroughSubject<Int, Never>()
        // Hold the queue until every value is scheduled, so that all 100 are pending.
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        subject.receive(on: queue).subscribe(recorder)
        for value in 0..<100 { subject.send(value) }
        subject.send(completion: .finished)
        gate.signal()
        queue.sync {}
        #expect(recorder.events == (0...10).map { RecordedEvent<Int, Never>.value($0) })
        holder.items = []
    }

    @Test func anActionRunningWhileAnotherDeliversLeavesItsEventToThatThread() {
        let scheduler = SchedCollectingScheduler()
        let inDelivery = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let recorder = TestRecorder<Int, Never>(releasesSubscription: []) { event in
            if event == .value(0) {
                inDelivery.signal()
                _ = release.wait(timeout: .now() + 10)
            }
        }
        let subject = PassthroughSubject<Int, Never>()
        subject.receive(on: scheduler).subscribe(recorder)
        subject.send(0)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(scheduler.count == 3)

        // The first action delivers 0 on another thread and stays inside the subscriber.
        let firstDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            scheduler.run(0)
            firstDone.signal()
        }
        #expect(inDelivery.wait(timeout: .now() + 10) == .success)
        // The other actions run meanwhile, here: they must not call the subscriber.
        scheduler.run(1)
        scheduler.run(2)
        #expect(recorder.events == [.value(0)])
        release.signal()
        #expect(firstDone.wait(timeout: .now() + 10) == .success)
        #expect(recorder.events == [.value(0), .value(1), .finished])
    }
}

/// A scheduler that only collects its actions, for the test to run on the threads it
/// chooses.
///
/// `@unchecked Sendable`: `actions` is only touched with `lock` held.
private final class SchedCollectingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = ImmediateScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    private let lock = Lock()
    private var actions: [() -> Void] = []

    var now: SchedulerTimeType { ImmediateScheduler.shared.now }
    var minimumTolerance: SchedulerTimeType.Stride { 0 }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        lock.withLock { actions.append(action) }
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(options: nil, action)
        return AnyCancellable {}
    }

    var count: Int { lock.withLock { actions.count } }

    /// Runs the action scheduled `index`-th, on the calling thread.
    func run(_ index: Int) {
        let action = lock.withLock { actions[index] }
        action()
    }
}
