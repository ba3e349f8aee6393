/// Where an operator with one upstream whose completion may go down later than it came
/// (through a scheduler, or behind values still owed: `debounce`, `throttle`,
/// `receive(on:)` and `delay` through ``ScheduledDelivery``, `collect(.byTime)`) stands:
/// waiting for the upstream's subscription, subscribed, the upstream finished (its
/// completion is still owed downstream), or terminal (cancelled, or the completion was
/// handed on: nothing more is done). The combining operators, with several upstreams, use
/// ``UpstreamSlot``. `timeout` keeps its own status: it also ends when the upstream has
/// not finished, and cancels it then (see `markUpstreamFinished()`).
///
/// A plain value kept under the operator's lock, like ``DeliveryQueue``. The transitions
/// that drop the upstream's subscription hand it back instead of releasing it: the
/// operator cancels or releases it after unlocking, because both run outside code (the
/// upstream's `cancel()` or `deinit`), which may call back into the operator and would
/// deadlock on its lock.
enum UpstreamStatus {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// The upstream completed; the operator still owes the completion downstream.
    case upstreamFinished
    /// Cancelled, or the completion was handed on: to the delivery queue (`debounce`,
    /// `throttle`), or taken from it to be delivered (``ScheduledDelivery``,
    /// `collect(.byTime)`).
    case terminal

    /// Whether the operator still takes the upstream's values and completion.
    var isSubscribed: Bool {
        if case .subscribed = self { true } else { false }
    }

    /// Keeps `subscription` if it is the first one. `false` when one came before, or the
    /// operator was cancelled first: the caller cancels `subscription`, as Combine's
    /// operators do.
    mutating func accept(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = self else { return false }
        self = .subscribed(subscription)
        return true
    }

    /// The upstream completed: `subscribed` becomes `upstreamFinished`, and the returned
    /// subscription is for the caller to release after unlocking (not to cancel: the
    /// upstream is done). `nil`, with nothing changed, when not subscribed (a completion
    /// after a cancel, or a second one): the caller ignores the completion.
    mutating func markUpstreamFinished() -> (any Subscription)? {
        guard case .subscribed(let subscription) = self else { return nil }
        self = .upstreamFinished
        return subscription
    }

    /// The operator is cancelled: any status becomes `terminal`. Returns the upstream's
    /// subscription when it was still subscribed, for the caller to cancel after
    /// unlocking.
    mutating func terminate() -> (any Subscription)? {
        let upstream: (any Subscription)? = if case .subscribed(let subscription) = self { subscription } else { nil }
        self = .terminal
        return upstream
    }
}
