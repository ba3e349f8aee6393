/// Where one upstream of a combining operator (`combineLatest`, `zip`) stands: not
/// subscribed yet, subscribed, or finished (or let go after a failure or a cancel).
enum UpstreamSlot {
    case awaiting
    case subscribed(any Subscription)
    case finished
}

extension Array where Element == UpstreamSlot {
    /// The subscriptions of the upstreams that have not finished, which are marked
    /// finished: the caller cancels them (after giving up its lock).
    mutating func takeSubscriptions() -> [any Subscription] {
        var taken: [any Subscription] = []
        for index in indices {
            if case .subscribed(let subscription) = self[index] {
                taken.append(subscription)
                self[index] = .finished
            }
        }
        return taken
    }
}
