import Bindings
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Combine's publisher of a URL session data task: it loads a request when the
    /// subscriber first asks for a value, then sends the data and the response and
    /// finishes, or fails with a `URLError`.
    ///
    /// Create one with `URLSession.dataTaskPublisher(for:)`, of a URL or of a request.
    ///
    /// ```swift
    /// let c = URLSession.shared.dataTaskPublisher(for: URL(string: "https://example.com")!)
    ///     .map(\.data)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.count, "bytes") })
    /// ```
    ///
    /// - **Start:** each subscriber gets a task of its own, created and resumed at its
    ///   first demand: subscribing alone makes no request.
    /// - **Result:** any response is a value, an HTTP error status (404, 500) included,
    ///   as in Combine; check `(response as? HTTPURLResponse)?.statusCode`. A request
    ///   that gets no response (the host refuses the connection, the network is down)
    ///   fails with the session's `URLError`.
    /// - **Thread:** the value and the completion arrive on the thread of the session's
    ///   delegate queue that runs the task's completion handler.
    /// - **Cancel:** cancelling cancels the task; nothing arrives after `cancel()`.
    ///
    /// On Linux, `URLSession` lives in FoundationNetworking: a file that uses it imports
    /// that too (`#if canImport(FoundationNetworking)`).
    public struct DataTaskPublisher: Publisher {
        /// The body of the response (empty when it has none) and the response.
        public typealias Output = (data: Data, response: URLResponse)
        /// The error of a request that got no response.
        public typealias Failure = URLError

        /// The URL request performed by the data task.
        public let request: URLRequest
        /// The URL session that performs the data task.
        public let session: URLSession

        /// Creates a publisher that performs `request` with `session`, for each
        /// subscriber, at its first demand.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Creates the subscriber's data task, resumed at its first demand and cancelled
        /// when it cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // A value is only ever sent after a demand (the task starts then, and demand
            // never shrinks), so the policy never comes into play.
            let subscription = EventSubscription(downstream: subscriber, policy: .buffer)
            subscriber.receive(subscription: subscription)
            guard subscription.isActive else { return }
            let receiver: any CompletingEventReceiver<Output, Failure> = subscription
            let launcher = DataTaskLauncher(session: session, request: request) { data, response, error in
                switch Self.outcome(data: data, response: response, error: error) {
                case .success(let output):
                    receiver.send(output)
                    receiver.finish(.finished)
                case .failure(let error):
                    receiver.finish(.failure(error))
                }
            }
            subscription.attach(stop: { launcher.cancel() }, demandDidIncrease: { launcher.start() })
            // Demand requested from inside `receive(subscription:)` came before the hook.
            if subscription.hasUnmetDemand { launcher.start() }
        }

        /// What a completed task publishes, as Combine decides: a response without an
        /// error is a value (no data is empty data); an error is its `URLError`; neither
        /// is `URLError(.unknown)`.
        static func outcome(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<Output, URLError> {
            if let error {
                return .failure(urlError(error))
            }
            guard let response else { return .failure(URLError(.unknown)) }
            return .success((data ?? Data(), response))
        }

        /// The session's error as a `URLError`: itself, or an `NSError` of
        /// `NSURLErrorDomain` with its code and user info, else `URLError(.unknown)`.
        static func urlError(_ error: any Error) -> URLError {
            if let error = error as? URLError { return error }
            let nsError = error as NSError
            guard nsError.domain == NSURLErrorDomain else {
                return URLError(.unknown, userInfo: [NSUnderlyingErrorKey: nsError])
            }
            // Optional on Linux, where an unknown code gives `nil`.
            let code: URLError.Code? = URLError.Code(rawValue: nsError.code)
            return URLError(code ?? .unknown, userInfo: nsError.userInfo)
        }
    }

    /// A publisher that loads `url` with this session at the subscriber's first demand,
    /// as in Combine (see ``DataTaskPublisher``).
    ///
    /// ```swift
    /// let c = URLSession.shared.dataTaskPublisher(for: URL(string: "https://example.com/status")!)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.response) })
    /// ```
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// A publisher that performs `request` with this session at the subscriber's first
    /// demand, as in Combine (see ``DataTaskPublisher``).
    ///
    /// ```swift
    /// var request = URLRequest(url: URL(string: "https://example.com/items")!)
    /// request.httpMethod = "POST"
    /// let c = URLSession.shared.dataTaskPublisher(for: request)
    ///     .map(\.data)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }
}
