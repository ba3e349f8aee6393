import Foundation

extension RunLoop {
    /// Options that affect the operation of the run loop scheduler: there are none, as in
    /// Combine.
    public struct SchedulerOptions: Sendable {}
}
