/// The events a scheduling operator (``Publishers/ReceiveOn``, ``Publishers/Debounce``,
/// ``Publishers/Throttle``) has decided to deliver downstream but not yet delivered, in
/// order, and whether a thread is delivering them now.
///
/// Why a queue: the scheduler runs the operator's actions, and a concurrent queue may
/// run two at once, or a downstream may re-enter the operator from inside a delivery
/// (with ``ImmediateScheduler``). The subscriber contract wants one call at a time, in
/// order, and the library never calls a subscriber while holding a lock. So an action
/// appends under the operator's lock; the one thread that finds `isDelivering` false
/// becomes the deliverer and drains the queue, releasing the lock around each call.
///
/// Guarded by the owning subscription's lock. Popping leaves no copy behind, and
/// ``takeAll()`` hands the remaining events out, so that no value is destroyed (which may
/// run user code) while that lock is held.
struct DeliveryQueue<Input, Failure: Error> {
    enum Event {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    private var events: [Event?] = []
    private var head = 0

    /// Whether a thread is inside the operator's delivery loop; others only append.
    var isDelivering = false

    mutating func append(_ event: Event) {
        events.append(event)
    }

    /// Removes and returns the oldest event. The storage is kept for reuse, so a
    /// steady stream allocates nothing.
    mutating func popFirst() -> Event? {
        guard head < events.count else { return nil }
        let event = events[head].take()
        head += 1
        if head == events.count {
            events.removeAll(keepingCapacity: true)
            head = 0
        }
        return event
    }

    /// Removes every event and returns them, for the caller to drop after unlocking.
    mutating func takeAll() -> [Event?] {
        let taken = events
        events = []
        head = 0
        return taken
    }
}

extension DeliveryQueue.Event {
    /// Calls `downstream` with this event and returns the demand it adds. Consuming, so
    /// that the event (and its value) is released here, before the caller takes its lock
    /// again.
    consuming func deliver<S: Subscriber>(to downstream: S) -> Subscribers.Demand
    where S.Input == Input, S.Failure == Failure {
        switch consume self {
        case .value(let value):
            return downstream.receive(value)
        case .completion(let completion):
            downstream.receive(completion: completion)
            return .none
        }
    }
}
