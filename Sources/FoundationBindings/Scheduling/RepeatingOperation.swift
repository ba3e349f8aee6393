import Bindings
import Dispatch
import Foundation

/// A repeating action of the operation queue scheduler: it waits for its date, adds an
/// operation that runs the action, and when that has run, waits the interval and adds
/// the next one, until cancelled.
///
/// One operation at a time is in the queue or running, so the action never overlaps
/// itself. The waits and the queued operation hold this object; cancelling releases the
/// action at once and cancels the queued operation, and the next wait that ends finds
/// nothing to do, which releases the rest.
final class RepeatingOperation: Cancellable, Sendable {
    private struct State {
        /// The action, until cancelled.
        var action: HandedOverAction?
        /// The operation added to the queue and not started yet.
        var queued: Operation?
    }

    private let queue: OperationQueue
    private let interval: TimeInterval
    private let state: LockedState<State>

    init(queue: OperationQueue, interval: TimeInterval, action: HandedOverAction) {
        self.queue = queue
        self.interval = interval
        state = LockedState(State(action: action, queued: nil))
    }

    /// Adds the first operation at `date`.
    func start(at date: Date) {
        DispatchQueue.global().asyncAfter(wallDeadline: DispatchWallTime(date)) { self.enqueue() }
    }

    func cancel() {
        let (action, queued) = state.withLock { ($0.action.take(), $0.queued.take()) }
        queued?.cancel()
        // Released here, outside the lock: what it captures may run user code in deinit.
        withExtendedLifetime(action) {}
    }

    /// Adds an operation for the next run, unless cancelled.
    private func enqueue() {
        let operation = BlockOperation { self.run() }
        let isActive = state.withLock { state in
            guard state.action != nil else { return false }
            state.queued = operation
            return true
        }
        if isActive { queue.addOperation(operation) }
    }

    /// The operation's body: runs the action, then waits for the next run.
    private func run() {
        let action = state.withLock { state in
            state.queued = nil
            return state.action
        }
        guard let action else { return }
        action.run()
        DispatchQueue.global().asyncAfter(wallDeadline: DispatchWallTime(Date(timeIntervalSinceNow: interval))) {
            self.enqueue()
        }
    }
}
