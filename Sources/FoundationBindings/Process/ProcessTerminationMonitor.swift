import Foundation
import Synchronization

/// Watches one `Process` for its termination on behalf of every subscriber of its
/// ``Publishers/ProcessTermination``.
///
/// `Process` has a single `terminationHandler` slot (and on Linux it posts no
/// `Process.didTerminateNotification`), so the first subscriber installs one handler
/// that calls the handler set before it, then tells the monitor; later subscribers of
/// the same process join the monitor instead of wrapping the handler again. The
/// registry finds a process's monitor by identity while the process is alive.
///
/// The race with a process that has already exited: Foundation reads
/// `terminationHandler` only once, when the process exits, after clearing `isRunning`.
/// So a subscriber installs the handler first and checks `isRunning` after; if the
/// process had exited in between, the check sees it, and the monitor's once-only
/// ``fire(status:)`` ignores the second report.
///
/// `@unchecked Sendable`: `status` and `listeners` are only touched with `lock` held;
/// listeners are called with it released.
final class ProcessTerminationMonitor: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int32?
    private var listeners: [ObjectIdentifier: any EventReceiver<Int32>] = [:]

    private init() {}

    /// Subscribes `receiver` to `process`'s termination status: it gets the status (and
    /// then finishes) when the process exits, at once if it already has. Returns the
    /// unsubscribe action.
    static func watch(_ process: Process, receiver: any EventReceiver<Int32>) -> () -> Void {
        if hasExited(process) {
            deliver(process.terminationStatus, to: receiver)
            return {}
        }
        let (monitor, isNew) = registry.monitor(for: process)
        if isNew {
            let previous = process.terminationHandler
            process.terminationHandler = { process in
                previous?(process)
                registry.remove(process)
                monitor.fire(status: process.terminationStatus)
            }
        }
        let id = ObjectIdentifier(receiver)
        monitor.add(receiver, id: id)
        // Orders the handler's installation before the read of `isRunning`, against
        // Foundation's clearing of `isRunning` before it reads the handler.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        if hasExited(process) {
            registry.remove(process)
            monitor.fire(status: process.terminationStatus)
        }
        return { [weak monitor] in monitor?.remove(id: id) }
    }

    private func add(_ receiver: any EventReceiver<Int32>, id: ObjectIdentifier) {
        lock.lock()
        guard let status else {
            listeners[id] = receiver
            lock.unlock()
            return
        }
        lock.unlock()
        Self.deliver(status, to: receiver)
    }

    private func remove(id: ObjectIdentifier) {
        let removed = lock.withLock { listeners.removeValue(forKey: id) }
        withExtendedLifetime(removed) {}
    }

    /// Records the status and tells every listener, once; later calls do nothing.
    private func fire(status: Int32) {
        lock.lock()
        guard self.status == nil else {
            lock.unlock()
            return
        }
        self.status = status
        let listeners = self.listeners
        self.listeners = [:]
        lock.unlock()
        for receiver in listeners.values {
            Self.deliver(status, to: receiver)
        }
    }

    /// Whether the process was launched and has exited (a process not yet launched has
    /// no identifier).
    private static func hasExited(_ process: Process) -> Bool {
        process.processIdentifier != 0 && !process.isRunning
    }

    private static func deliver(_ status: Int32, to receiver: any EventReceiver<Int32>) {
        receiver.send(status)
        receiver.finish()
    }

    private static let registry = Registry()

    /// The monitors of processes that have subscribers and have not exited, by process
    /// identity. `@unchecked Sendable`: `entries` is only touched with `lock` held.
    private final class Registry: @unchecked Sendable {
        private struct Entry {
            weak var process: Process?
            let monitor: ProcessTerminationMonitor
        }

        private let lock = NSLock()
        private var entries: [ObjectIdentifier: Entry] = [:]

        /// The process's monitor, and whether it was created now (so that its handler
        /// must be installed). Entries of processes that are gone are dropped here.
        func monitor(for process: Process) -> (ProcessTerminationMonitor, isNew: Bool) {
            lock.withLock {
                entries = entries.filter { $0.value.process != nil }
                let id = ObjectIdentifier(process)
                if let entry = entries[id], entry.process === process {
                    return (entry.monitor, false)
                }
                let monitor = ProcessTerminationMonitor()
                entries[id] = Entry(process: process, monitor: monitor)
                return (monitor, true)
            }
        }

        /// Forgets the process's monitor: it has exited, so a new subscriber installs a
        /// handler of its own and finds the process exited.
        func remove(_ process: Process) {
            lock.withLock {
                let id = ObjectIdentifier(process)
                if entries[id]?.process === process { entries[id] = nil }
            }
        }
    }
}
