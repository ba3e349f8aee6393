import Bindings
import Dispatch
import Foundation

extension DispatchSource: ReactiveExtensionProvider {}

extension Publishers {
    /// A publisher of the Unix signals the process receives, through a signal
    /// `DispatchSource`. It emits the signal's number once per signal received, and
    /// never finishes.
    ///
    /// Create one with ``Reactive/signals(_:_:)``:
    /// `DispatchSource.reactive.signals(SIGINT, SIGTERM)`.
    ///
    /// **Disposition:** while a signal has subscribers, the process does not take the
    /// signal's default action (for `SIGINT` and `SIGTERM`, terminating): the first
    /// subscriber sets the signal to `SIG_IGN` (on Linux, to libdispatch's forwarding
    /// handler once its source is registered, because Linux discards ignored signals
    /// before a dispatch source sees them), and when the last subscriber cancels, the
    /// disposition the signal had before is restored. All subscribers of a signal share
    /// one dispatch source. Two consequences of the platforms' mechanisms: a process
    /// started while a signal is `SIG_IGN` (on Apple platforms, while subscribed)
    /// inherits `SIG_IGN` for it; and on Linux, libdispatch's handler blocks the
    /// signals in each thread it runs on, for good (it forwards them to its own thread).
    ///
    /// **Subscribing** waits (typically well under a millisecond) until the dispatch
    /// source is registered, so that a signal raised once `subscribe` returns, such as
    /// `kill(getpid(), SIGUSR1)`, is received.
    ///
    /// **Counting:** the kernel merges a signal that arrives while the same signal is
    /// still pending, so a burst may be received as fewer values than were sent.
    ///
    /// **Thread:** values arrive on a private serial dispatch queue, one per signal
    /// number.
    ///
    /// **Demand:** a signal received while the subscriber has no unmet demand is
    /// dropped.
    ///
    /// **Cancel:** removes the subscriber; the last one cancels the source and restores
    /// the disposition.
    public struct UnixSignals: Publisher {
        /// The number of each signal received.
        public typealias Output = Int32
        /// The publisher cannot fail.
        public typealias Failure = Never

        /// The signals this publisher emits.
        public let signals: [Int32]

        /// Creates a publisher of `signals`. Each must be a signal a process can catch:
        /// not `SIGKILL` or `SIGSTOP`.
        public init(_ signals: [Int32]) {
            for signal in signals {
                if signal <= 0 || signal >= NSIG || signal == SIGKILL || signal == SIGSTOP {
                    fatalError(
                        "FoundationBindings: signal \(signal) cannot be observed; pass a signal a process can catch, such as SIGINT, SIGTERM, SIGHUP or SIGUSR1 (not SIGKILL or SIGSTOP)")
                }
            }
            var seen = Set<Int32>()
            self.signals = signals.filter { seen.insert($0).inserted }
        }

        /// Adds the subscriber to the signals' watchers (waiting until their sources are registered); it is removed when it cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = EventSubscription(downstream: subscriber, policy: .drop)
            subscriber.receive(subscription: subscription)
            guard subscription.isActive else { return }
            let remove = SignalRegistry.shared.add(subscription, for: signals)
            subscription.attach(stop: remove)
        }
    }
}

extension Reactive where Base: DispatchSource {
    /// A publisher that emits the number of each of the given Unix signals the process
    /// receives, and keeps the process from taking their default action while
    /// subscribed.
    ///
    /// Values arrive on a private serial queue; subscribing waits until the signal
    /// source is registered; the previous disposition is restored after the last
    /// subscriber cancels (see ``Publishers/UnixSignals``).
    ///
    /// ```swift
    /// let c = DispatchSource.reactive.signals(SIGINT, SIGTERM)
    ///     .sink { _ in app.shutDown() }
    /// ```
    public static func signals(_ signal: Int32, _ more: Int32...) -> Publishers.UnixSignals {
        Publishers.UnixSignals([signal] + more)
    }
}
