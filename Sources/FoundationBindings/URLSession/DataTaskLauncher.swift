import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts one URL session data task when first asked to, and cancels it: the source of a
/// `URLSession.DataTaskPublisher` subscription, started by the subscriber's first demand.
///
/// The task is only created when started, so that a subscription nobody asks anything of
/// makes no request at all. Starting again, or after cancelling, does nothing;
/// cancelling before starting means the task is never created, and cancelling after the
/// task completed does not touch it.
final class DataTaskLauncher: Sendable {
    private enum State {
        case idle
        case running(URLSessionDataTask)
        /// Completed or cancelled: the task, if there was one, is let go of.
        case over
    }

    private let session: URLSession
    private let request: URLRequest
    private let completionHandler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    private let state = LockedState(State.idle)

    init(
        session: URLSession,
        request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) {
        self.session = session
        self.request = request
        self.completionHandler = completionHandler
    }

    /// Creates and resumes the task, the first time only.
    func start() {
        let task: URLSessionDataTask? = state.withLock { state in
            guard case .idle = state else { return nil }
            // The task holds this launcher until it completes, which lets go of the task.
            let task = session.dataTask(with: request) { data, response, error in
                self.state.withLock { $0 = .over }
                self.completionHandler(data, response, error)
            }
            state = .running(task)
            return task
        }
        // Resumed after unlocking: the completion handler may run before `resume` returns.
        task?.resume()
    }

    /// Cancels the task if it runs, and keeps it from starting.
    func cancel() {
        let task: URLSessionDataTask? = state.withLock { state in
            defer { state = .over }
            guard case .running(let task) = state else { return nil }
            return task
        }
        task?.cancel()
    }
}
