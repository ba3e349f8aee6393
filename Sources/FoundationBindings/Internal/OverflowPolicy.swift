/// What an ``EventSubscription`` does with a value that its source produces while the
/// subscriber has no unmet demand.
///
/// Each publisher of this module picks the policy that suits its source, and says so in
/// its documentation:
/// - events that mean "something happened now" (notifications, timer ticks, signals)
///   are dropped, as Combine's `NotificationCenter.Publisher` and `Timer.TimerPublisher`
///   do;
/// - a value that is a state (a default) keeps only the latest, so that the subscriber
///   ends up with the current state once it asks;
/// - data that must not be lost (a process's status, a file's bytes and lines) is
///   buffered, and the source is paused instead so that the buffer stays small.
enum OverflowPolicy {
    /// The value is dropped.
    case drop
    /// The value replaces a value still waiting for demand (or waits itself).
    case keepLatest
    /// The value waits for demand, however many are waiting.
    case buffer
}
