import CBindingsThreadLocal
import Dispatch

/// Whether code runs where the main actor runs, without Foundation: on the main thread,
/// or in a block of the main queue.
///
/// The same rule as the Swift runtime's (`MainActor.assumeIsolated` accepts both):
/// - **The main thread** (the process's initial thread) is the main actor's, also inside
///   another queue's `sync` block: found with one load of a thread-local flag (see
///   `bindings_is_initial_thread`), the common case of main-actor code.
/// - **A block of the main queue** on another thread: after `dispatchMain()`, which ends
///   the main thread, libdispatch runs the main queue on worker threads. The main queue
///   is tagged with a queue-specific key, visible only in its blocks.
///
/// Asked at every delivery to a main-actor callback. The look-up of the queue's tag
/// (`DispatchQueue.getSpecific`, a generic call of the Dispatch overlay, then
/// `dispatch_get_specific`) measured about 22 ns a call in a loop on this machine; in the
/// profile of a main-actor `sink` (51 ns a value before the flag), its share was about 9 ns.
@usableFromInline
enum MainThread {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the current thread runs the main actor now.
    @inlinable
    static var isCurrent: Bool {
        bindings_is_initial_thread() || isRunningMainQueue
    }

    /// Whether the current thread runs a block of the main queue.
    @usableFromInline
    static var isRunningMainQueue: Bool { DispatchQueue.getSpecific(key: key) == true }
}
