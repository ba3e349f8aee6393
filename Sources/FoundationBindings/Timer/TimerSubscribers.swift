import Foundation

/// The subscribers of a `Timer.TimerPublisher` that have not cancelled, in
/// the order they subscribed: what each tick of its timers is offered to.
///
/// Apart from the publisher (which holds `RunLoop`, not `Sendable`), so that a timer's
/// `@Sendable` block can hold it: the list is only touched with its lock held, and the
/// subscriptions are called, and released, after unlocking.
final class TimerSubscribers: Sendable {
    private let entries = LockedState<[(id: ObjectIdentifier, receiver: any EventReceiver<Date>)]>([])

    /// Adds a subscriber's subscription, under `id`.
    func add(_ receiver: any EventReceiver<Date>, id: ObjectIdentifier) {
        entries.withLock { $0.append((id, receiver)) }
    }

    /// Removes the subscription added under `id`, if it is there.
    func remove(_ id: ObjectIdentifier) {
        let removed = entries.withLock { entries -> (any EventReceiver<Date>)? in
            guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
            return entries.remove(at: index).receiver
        }
        withExtendedLifetime(removed) {}
    }

    /// Offers `date` to every subscriber; one without demand drops it.
    func send(_ date: Date) {
        let receivers = entries.withLock { $0.map(\.receiver) }
        for receiver in receivers { receiver.send(date) }
    }
}
