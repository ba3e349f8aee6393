// A crash (a trap in Swift code, a bad access) must not leave the user's terminal in
// raw mode on the alternate screen, where the shell prompt that follows is invisible and
// typing does not echo. The guard catches the fatal signals, puts the terminal back with
// async-signal-safe calls only (write, tcsetattr), then gives the signal to the handler
// it replaced (the Swift runtime's backtracer) or to the default action.

#if canImport(Glibc)
import Glibc
#endif

/// Restores the terminal when the process receives a fatal signal.
package enum CrashGuard {
    /// The signals that end a process that crashed.
    package static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// What the handler needs, in memory that is never freed or changed after
    /// ``install(descriptor:restoring:on:)`` publishes it: plain values and buffers, so
    /// that the handler neither allocates nor touches reference counts.
    private struct State {
        var output: Int32
        var input: Int32
        var hasSettings: Bool
        var settings: UnsafeMutablePointer<termios>
        var bytes: UnsafeMutableBufferPointer<UInt8>
        /// The action each of ``fatalSignals`` had, in the same order.
        var previous: UnsafeMutableBufferPointer<sigaction>
        var signals: UnsafeMutableBufferPointer<Int32>
    }

    /// Set once, by the first ``install(descriptor:restoring:on:)``, before any handler
    /// that reads it is installed (`sigaction` orders the write before the handler's
    /// reads); never written again, and read only by the handler. So there is no
    /// concurrent write to race with, which is why `nonisolated(unsafe)` is safe here.
    nonisolated(unsafe) private static var state: State?

    /// Installs the handlers: on a fatal signal, `TerminalSequences.leave` is written to
    /// `descriptor` and `settings` applied to `input`. Only the first call installs.
    package static func install(descriptor: Int32, restoring settings: termios?, on input: Int32) {
        guard state == nil else { return }
        let text = Array(TerminalSequences.leave.utf8)
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
        _ = bytes.initialize(from: text)
        let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        saved.initialize(to: settings ?? termios())
        let signals = UnsafeMutableBufferPointer<Int32>.allocate(capacity: fatalSignals.count)
        _ = signals.initialize(from: fatalSignals)
        let previous = UnsafeMutableBufferPointer<sigaction>.allocate(capacity: fatalSignals.count)
        for (index, signal) in fatalSignals.enumerated() {
            var old = sigaction()
            sigaction(signal, nil, &old)
            previous.initializeElement(at: index, to: old)
        }
        state = State(
            output: descriptor, input: input, hasSettings: settings != nil, settings: saved,
            bytes: bytes, previous: previous, signals: signals)
        for signal in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, info, _ in CrashGuard.handle(signal, info) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(SA_SIGINFO) | Int32(bitPattern: UInt32(SA_RESETHAND))
            sigaction(signal, &action, nil)
        }
    }

    /// The handler: restores the terminal, puts back the action it replaced, and returns.
    /// A fault (a trap, a bad access) happens again when the instruction runs again, and
    /// reaches that action (the Swift runtime's backtracer, or the default: the end of the
    /// process); a signal that was sent (`kill`, `abort`) is sent again.
    private static func handle(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?) {
        guard let state else { return }
        _ = Glibc.write(state.output, state.bytes.baseAddress, state.bytes.count)
        if state.hasSettings { _ = tcsetattr(state.input, TCSANOW, state.settings) }
        for index in 0..<state.signals.count where state.signals[index] == signal {
            _ = withUnsafePointer(to: state.previous[index]) { sigaction(signal, $0, nil) }
        }
        // si_code <= 0: sent by a process (SI_USER, SI_TKILL, SI_QUEUE), not by a fault.
        if let info, info.pointee.si_code <= 0 { raise(signal) }
    }
}
