import Foundation

extension OperationQueue {
    /// Options that affect the operation of the operation queue scheduler: there are
    /// none, as in Combine.
    public struct SchedulerOptions: Sendable {}
}
