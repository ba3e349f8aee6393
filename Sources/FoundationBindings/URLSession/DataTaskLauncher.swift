import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts one URL session data task when first asked to, and cancels it: the source of a
/// `URLSession.DataTaskPublisher` subscription, started by the subscriber's
/// first demand.
///
/// The task is only created when started, so that a subscription nobody asks anything of
/// makes no request at all. Starting again, or after cancelling, does nothing;
/// cancelling before starting means the task is never created.
final class DataTaskLauncher: Sendable {
    private enum State {
        case idle
        case running(URLSessionDataTask)
        case cancelled
    }

    private let session: URLSession
    private let request: URLRequest
    private let completionHandler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    private let state = Mutex(State.idle)

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
            let task = session.dataTask(with: request, completionHandler: completionHandler)
            state = .running(task)
            return task
        }
        // Resumed after unlocking: the completion handler may run before `resume` returns.
        task?.resume()
    }

    /// Cancels the task if it runs, and keeps it from starting.
    func cancel() {
        let task: URLSessionDataTask? = state.withLock { state in
            defer { state = .cancelled }
            guard case .running(let task) = state else { return nil }
            return task
        }
        task?.cancel()
    }
}
