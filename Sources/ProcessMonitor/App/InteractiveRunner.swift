import Dispatch
import Foundation
import FoundationBindings

/// Drives a ``TerminalSession`` with the event sources of FoundationBindings, on the
/// main actor: a timer for the refreshes, the standard input's bytes for the keys, and
/// Unix signals (SIGINT, SIGTERM, SIGHUP end the monitor, SIGWINCH lays it out again).
///
/// Between events the process sleeps: the timer and the signals are dispatch sources,
/// and the keys are read by a thread blocked in `poll(2)`; nothing spins.
@MainActor
package final class InteractiveRunner {
    private let session: TerminalSession
    private let options: Options
    private var running = Set<AnyCancellable>()

    /// A runner of `session` with `options` (interval, duration).
    package init(session: TerminalSession, options: Options) {
        self.session = session
        self.options = options
    }

    /// Runs until the session ends, then exits the process with its status.
    package func run() -> Never {
        do {
            guard try session.start() else { finish() }
        } catch {
            FileOutput.write("bindings-demo: \(error.description)\n", to: STDERR_FILENO)
            exit(1)
        }
        let milliseconds = Int((options.interval * 1000).rounded())
        DispatchQueue.main.reactive.timer(every: .milliseconds(milliseconds))
            .sink { [self] _ in if !session.tick() { finish() } }
            .store(in: &running)
        FileHandle.standardInput.reactive.data
            .sink(receiveCompletion: { [self] _ in
                session.timeUp()   // the terminal went away: end as a quit
                finish()
            }, receiveValue: { [self] data in
                if !session.input(data) { finish() }
            })
            .store(in: &running)
        DispatchSource.reactive.signals(SIGINT, SIGTERM, SIGHUP)
            .sink { [self] number in
                session.signal(number)
                finish()
            }
            .store(in: &running)
        DispatchSource.reactive.signals(SIGWINCH)
            .sink { [self] _ in session.resized() }
            .store(in: &running)
        if let duration = options.duration {
            DispatchQueue.main.reactive.timer(every: .milliseconds(Int((duration * 1000).rounded())))
                .sink { [self] _ in
                    session.timeUp()
                    finish()
                }
                .store(in: &running)
        }
        dispatchMain()
    }

    /// Exits with the session's status, after its message for a failure (the terminal
    /// is already restored, so the message lands on the main screen).
    private func finish() -> Never {
        running.removeAll()
        if case .failure(let message) = session.ending {
            FileOutput.write("bindings-demo: \(message)\n", to: STDERR_FILENO)
        }
        exit(session.ending?.status ?? 0)
    }
}
