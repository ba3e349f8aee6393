import Dispatch
@testable import Bindings

/// A scheduler with virtual time, for testing time-based operators without sleeping.
///
/// Time stands still until the test calls ``advance(by:)``, which runs every action due
/// by the new time, earliest first (actions due at the same time in the order they were
/// scheduled), moving ``now`` to each action's date as it runs it. An action scheduled
/// without a date is due now, so it runs at the next `advance` (`advance()` with no
/// argument runs just those). A repeating action is rescheduled one interval later each
/// time it runs, until its cancellable is cancelled.
///
/// Single-threaded: use it from the test's own thread only.
final class TestScheduler: Scheduler {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = Never

    private struct Item {
        let id: Int
        /// Orders items due at the same time: lower runs first.
        var sequence: Int
        var date: SchedulerTimeType
        let interval: SchedulerTimeType.Stride?
        let action: () -> Void
    }

    /// Where virtual time starts: one second of uptime (a zero `DispatchTime` means
    /// "now" to Dispatch's arithmetic, which would make dates real).
    static let start = SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000_000_000))

    private(set) var now = TestScheduler.start
    private var items: [Item] = []
    private var counter = 0

    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Virtual time since the start, in milliseconds.
    var elapsedMilliseconds: Int { TestScheduler.start.distance(to: now).magnitude / 1_000_000 }

    /// How many actions (one-shot or repeating) wait to run.
    var pendingCount: Int { items.count }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        add(date: now, interval: nil, action)
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        add(date: date, interval: nil, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        precondition(interval > .zero, "TestScheduler: a repeating action needs a positive interval")
        let id = add(date: date, interval: interval, action)
        // Unchecked: the test scheduler is used by one thread at a time (the test's).
        return AnyCancellable.unchecked { [weak self] in self?.items.removeAll { $0.id == id } }
    }

    /// Moves virtual time forward by `stride`, running every action due by then.
    func advance(by stride: SchedulerTimeType.Stride = .zero) {
        let target = now.advanced(by: stride)
        while let index = indexOfNextDue(by: target) {
            var item = items.remove(at: index)
            if now < item.date { now = item.date }
            if let interval = item.interval {
                // Rescheduled before it runs, so that the action can cancel itself.
                item.date = item.date.advanced(by: interval)
                item.sequence = nextNumber()
                items.append(item)
            }
            item.action()
        }
        now = target
    }

    /// Moves virtual time forward to `milliseconds` after the start.
    func advance(toMilliseconds milliseconds: Int) {
        advance(by: now.distance(to: TestScheduler.start.advanced(by: .milliseconds(milliseconds))))
    }

    @discardableResult
    private func add(date: SchedulerTimeType, interval: SchedulerTimeType.Stride?, _ action: @escaping () -> Void) -> Int {
        let number = nextNumber()
        items.append(Item(id: number, sequence: number, date: date, interval: interval, action: action))
        return number
    }

    private func nextNumber() -> Int {
        counter += 1
        return counter
    }

    private func indexOfNextDue(by target: SchedulerTimeType) -> Int? {
        var best: Int?
        for index in items.indices where items[index].date <= target {
            if let current = best,
               (items[current].date, items[current].sequence) < (items[index].date, items[index].sequence) {
                continue
            }
            best = index
        }
        return best
    }
}
