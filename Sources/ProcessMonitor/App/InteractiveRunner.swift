import Dispatch
import Foundation
import FoundationBindings

/// Drives a ``TerminalSession`` from publishers of events, on the main actor: ticks for
/// the refreshes, the bytes typed, the signals that end the monitor, and resizes.
///
/// ``Events/system(options:)`` makes them from FoundationBindings' event sources (a
/// dispatch timer, the standard input's data, SIGINT, SIGTERM and SIGHUP, SIGWINCH);
/// tests pass subjects. Between events the process sleeps: the timer and the signals are
/// dispatch sources, and the keys are read by a thread blocked in `poll(2)`; nothing
/// spins.
@MainActor
package final class InteractiveRunner {
    /// The events a session reacts to.
    package struct Events {
        /// A refresh is due.
        package var ticks: AnyPublisher<Void, Never>
        /// Bytes typed; finishing means the terminal went away.
        package var input: AnyPublisher<[UInt8], Never>
        /// A signal that ends the monitor.
        package var endSignals: AnyPublisher<Int32, Never>
        /// The terminal was resized.
        package var resizes: AnyPublisher<Void, Never>
        /// The duration ran out.
        package var timeUp: AnyPublisher<Void, Never>

        /// Events from these publishers.
        package init(
            ticks: AnyPublisher<Void, Never>, input: AnyPublisher<[UInt8], Never>,
            endSignals: AnyPublisher<Int32, Never>, resizes: AnyPublisher<Void, Never>,
            timeUp: AnyPublisher<Void, Never>
        ) {
            self.ticks = ticks
            self.input = input
            self.endSignals = endSignals
            self.resizes = resizes
            self.timeUp = timeUp
        }

        /// The process's events: a timer of `options.interval` on the main queue, the
        /// standard input, SIGINT, SIGTERM and SIGHUP (which no longer end the process by
        /// themselves while observed: the session restores the terminal first), SIGWINCH,
        /// and the end of `options.duration`.
        package static func system(options: Options) -> Events {
            let interval = Int((options.interval * 1000).rounded())
            let timeUp: AnyPublisher<Void, Never> = options.duration.map { duration in
                DispatchQueue.main.reactive.timer(every: .milliseconds(Int((duration * 1000).rounded())))
                    .map { _ in () }.eraseToAnyPublisher()
            } ?? Empty(completeImmediately: false).eraseToAnyPublisher()
            return Events(
                ticks: DispatchQueue.main.reactive.timer(every: .milliseconds(interval)).map { _ in () }.eraseToAnyPublisher(),
                input: FileHandle.standardInput.reactive.data.map { Array($0) }.eraseToAnyPublisher(),
                endSignals: DispatchSource.reactive.signals(SIGINT, SIGTERM, SIGHUP).eraseToAnyPublisher(),
                resizes: DispatchSource.reactive.signals(SIGWINCH).map { _ in () }.eraseToAnyPublisher(),
                timeUp: timeUp)
        }
    }

    /// The session driven.
    package let session: TerminalSession
    private let onEnd: (TerminalSession.Ending) -> Void
    private var running = Set<AnyCancellable>()
    private var reported = false

    /// A runner of `session` that calls `onEnd` once the session has ended (the terminal
    /// restored by then).
    package init(session: TerminalSession, onEnd: @escaping (TerminalSession.Ending) -> Void) {
        self.session = session
        self.onEnd = onEnd
    }

    /// Starts the session (the first refresh and frame), then reacts to `events`.
    ///
    /// The signals are observed before the terminal enters raw mode: from the moment it
    /// does, a SIGTERM must reach the session (which restores the terminal) rather than
    /// end the process with the terminal left raw.
    package func start(events: Events) throws(TerminalError) {
        events.endSignals
            .sink { [self] number in
                session.signal(number)
                finish()
            }
            .store(in: &running)
        events.resizes
            .sink { [self] _ in session.resized() }
            .store(in: &running)
        let started: Bool
        do {
            started = try session.start()
        } catch {
            running.removeAll()
            throw error
        }
        guard started else { return finish() }
        events.ticks
            .sink { [self] _ in if !session.tick() { finish() } }
            .store(in: &running)
        events.input
            .sink(receiveCompletion: { [self] _ in
                session.timeUp()
                finish()
            }, receiveValue: { [self] bytes in
                if !session.input(bytes) { finish() }
            })
            .store(in: &running)
        events.timeUp
            .sink { [self] _ in
                session.timeUp()
                finish()
            }
            .store(in: &running)
    }

    /// Stops reacting and reports the ending, once.
    private func finish() {
        guard !reported, let ending = session.ending else { return }
        reported = true
        running.removeAll()
        onEnd(ending)
    }
}
