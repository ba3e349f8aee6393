import Bindings
import Foundation

extension Process: ReactiveExtensionProvider {}

extension Publishers {
    /// A publisher that emits a process's termination status once, when it exits, and
    /// then finishes.
    ///
    /// Create one with ``Reactive/termination``. Subscribe before or after
    /// `run()`, even after the process has exited: the status always arrives exactly
    /// once. The status is `terminationStatus`: the exit code, or the number of the
    /// signal that killed the process (read `process.terminationReason` to tell them
    /// apart). A process that never runs (or whose `run()` throws) never emits.
    ///
    /// **How:** the first subscription installs a `terminationHandler` that calls the
    /// handler already set, then the publisher's subscribers. Set your own handler
    /// before subscribing: one set afterwards replaces the publisher's, and the
    /// publisher then never emits.
    ///
    /// **Thread:** on Linux the status arrives on the thread Foundation starts to run
    /// the termination handler (on Apple platforms, wherever Foundation runs it); when
    /// the process had already exited, on the subscribing thread, inside `subscribe`
    /// (or inside `request(_:)` when the subscriber asks later).
    ///
    /// **Demand:** the status waits for demand; the completion follows it.
    ///
    /// **Cancel:** the subscriber is removed from the process's watchers (the installed
    /// handler stays, and does nothing for it).
    public struct ProcessTermination: Publisher {
        /// The process's termination status.
        public typealias Output = Int32
        /// The publisher cannot fail.
        public typealias Failure = Never

        /// The process whose termination is published.
        public let process: Process

        /// Creates a publisher of `process`'s termination status.
        public init(process: Process) {
            self.process = process
        }

        /// Watches the process for the subscriber, which gets the status and `.finished` once the process has exited.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = EventSubscription(downstream: subscriber, policy: .buffer)
            subscriber.receive(subscription: subscription)
            guard subscription.isActive else { return }
            let unwatch = ProcessTerminationMonitor.watch(process, receiver: subscription)
            subscription.attach(stop: unwatch)
        }
    }
}

extension Reactive where Base: Process {
    /// A publisher that emits the process's termination status once it exits (at once
    /// if it already has), then finishes.
    ///
    /// The status arrives on the thread that runs Foundation's termination handler, or
    /// on the subscribing thread if the process had already exited (see
    /// ``Publishers/ProcessTermination``).
    ///
    /// ```swift
    /// let process = Process()
    /// process.executableURL = URL(fileURLWithPath: "/bin/sh")
    /// process.arguments = ["-c", "exit 3"]
    /// let c = process.reactive.termination.sink { print("exited with", $0) }  // 3
    /// try process.run()
    /// ```
    public var termination: Publishers.ProcessTermination {
        Publishers.ProcessTermination(process: base)
    }
}
