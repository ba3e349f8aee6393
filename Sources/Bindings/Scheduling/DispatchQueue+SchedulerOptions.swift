import Dispatch

extension DispatchQueue {
    /// Options that affect the operation of the dispatch queue scheduler, as in Combine.
    ///
    /// ```swift
    /// subject.receive(on: queue, options: .init(qos: .userInitiated)).sink { ... }
    /// ```
    public struct SchedulerOptions {
        /// The dispatch queue quality of service.
        public var qos: DispatchQoS

        /// The dispatch queue work item flags.
        public var flags: DispatchWorkItemFlags

        /// The dispatch group, if any, that should be used for performing actions.
        public var group: DispatchGroup?

        /// Creates options; the defaults are what `DispatchQueue.async` uses.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }
}
