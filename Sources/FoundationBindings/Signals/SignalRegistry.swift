import Dispatch
import Foundation

/// The process-wide state behind ``Publishers/UnixSignals``: one signal dispatch source
/// per signal number that has subscribers, shared by them, and the signal's saved
/// disposition.
///
/// The first subscriber of a signal saves its disposition, sets it to `SIG_IGN` (so
/// that the default action, often terminating the process, does not run), and creates
/// the source; the last one to cancel cancels the source and restores the saved
/// disposition.
///
/// Linux: libdispatch does not watch signals the way kqueue does. It installs a handler
/// of its own (which forwards the signal to its manager thread, where a `signalfd`
/// reads it) the first time a source for that signal is registered in the process,
/// and never again. A signal set to `SIG_IGN` is discarded by the kernel before a
/// `signalfd` can see it. So after a source is registered, the registry records
/// libdispatch's handler when it finds it installed, and installs the recorded handler
/// again when a later source finds `SIG_IGN` (after an earlier last subscriber restored
/// the saved disposition). If this process registered a source for the signal before
/// the registry first ran and then reset the signal's disposition, and no other
/// signal's source has shown libdispatch's handler yet, the signal stays ignored.
///
/// Subscribing waits until the source is registered, so that a signal raised once
/// `subscribe` returns is received. Each source has a serial queue of its own, so that
/// subscribing from inside another signal's delivery does not wait for itself.
///
/// `@unchecked Sendable`: `entries`, `dispatchHandler` and each entry's `listeners`
/// and `hasLeftGroup` are only touched with `lock` held; dispositions are read and set
/// with it held too, so that they change in the order subscriptions do. Receivers are
/// called with it released.
final class SignalRegistry: @unchecked Sendable {
    static let shared = SignalRegistry()

    private let lock = NSLock()
    private var entries: [Int32: Entry] = [:]
    /// libdispatch's forwarding handler, once seen (Linux).
    private var dispatchHandler: SignalDisposition?

    private init() {}

    /// One watched signal. `@unchecked Sendable`: `hasLeftGroup` and `listeners` are only
    /// touched with the registry's `lock` held; the rest are `let`s.
    private final class Entry: @unchecked Sendable {
        let signal: Int32
        let source: any DispatchSourceSignal
        let saved: SignalDisposition
        /// Left once the source is registered (or cancelled before it was).
        let registration = DispatchGroup()
        var hasLeftGroup = false
        var listeners: [ObjectIdentifier: any EventReceiver<Int32>] = [:]

        init(signal: Int32, saved: SignalDisposition) {
            self.signal = signal
            self.saved = saved
            let queue = DispatchQueue(label: "FoundationBindings.UnixSignals.\(signal)")
            source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            registration.enter()
        }
    }

    /// Sends each of `signals` that the process receives to `receiver` (once per
    /// signal received), from the time this returns until the returned action runs.
    func add(_ receiver: any EventReceiver<Int32>, for signals: [Int32]) -> () -> Void {
        let id = ObjectIdentifier(receiver)
        let groups = lock.withLock {
            signals.map { signal in
                let entry = entries[signal] ?? makeEntry(for: signal)
                entry.listeners[id] = receiver
                return entry.registration
            }
        }
        for group in groups {
            group.wait()
        }
        return { self.remove(id, from: signals) }
    }

    /// Starts watching `signal`. Lock held.
    private func makeEntry(for signal: Int32) -> Entry {
        let entry = Entry(signal: signal, saved: .current(of: signal))
        SignalDisposition.ignore.install(for: signal)
        entries[signal] = entry
        entry.source.setRegistrationHandler { self.didRegister(entry) }
        entry.source.setEventHandler { self.deliver(entry) }
        entry.source.resume()
        return entry
    }

    private func remove(_ id: ObjectIdentifier, from signals: [Int32]) {
        var removed: [any EventReceiver<Int32>] = []
        lock.lock()
        for signal in signals {
            guard let entry = entries[signal], let receiver = entry.listeners.removeValue(forKey: id) else {
                continue
            }
            removed.append(receiver)
            guard entry.listeners.isEmpty else { continue }
            entries[signal] = nil
            // Cancelling releases the handlers, and with them the entry.
            entry.source.cancel()
            entry.saved.install(for: signal)
            leaveGroup(of: entry)
        }
        lock.unlock()
        withExtendedLifetime(removed) {}
    }

    /// The source's registration handler, on its queue.
    private func didRegister(_ entry: Entry) {
        lock.lock()
        defer { lock.unlock() }
        #if os(Linux)
        let signal = entry.signal
        if entries[signal] === entry {
            let current = SignalDisposition.current(of: signal)
            if current.isHandler {
                dispatchHandler = current
            } else {
                dispatchHandler?.install(for: signal)
            }
        } else if entries[signal] == nil {
            // Cancelled while registering: undo libdispatch's installation, if it made
            // one after the saved disposition was restored.
            entry.saved.install(for: signal)
        }
        #endif
        leaveGroup(of: entry)
    }

    /// Lock held.
    private func leaveGroup(of entry: Entry) {
        guard !entry.hasLeftGroup else { return }
        entry.hasLeftGroup = true
        entry.registration.leave()
    }

    /// The source's event handler, on its queue: one value per signal received since
    /// the last call, to every subscriber.
    private func deliver(_ entry: Entry) {
        let count = entry.source.data
        let receivers = lock.withLock { Array(entry.listeners.values) }
        for _ in 0..<count {
            for receiver in receivers {
                receiver.send(entry.signal)
            }
        }
    }
}
