/// The events that an operator owes its downstream, and which thread delivers them; used
/// by `combineLatest`, `merge`, `switchToLatest` and `flatMap` (several upstreams), and
/// by `receive(on:)`, `debounce` and `throttle` (scheduler actions, which a concurrent
/// queue may run two at once).
///
/// Several upstreams may call such an operator at once, from different threads, and the
/// downstream may call back into it (request, cancel, send to an upstream subject) from
/// inside a delivery. Combine serialises these calls with a recursive lock held while the
/// downstream runs; this library never holds a lock while calling user code (a lock held
/// across a callback deadlocks as soon as that callback waits for another thread that is
/// sending). Instead, one thread at a time is the *deliverer*: an event accepted while
/// another thread, or this one re-entrantly, is delivering is queued, and the deliverer
/// delivers it right after the current one. So the downstream never receives two calls at
/// once, never one nested in another, and receives events in the order the operator
/// accepted them, as with the subjects' `Channel`.
///
/// The owner keeps the queue under its own lock:
/// ```swift
/// lock.lock()
/// let mustDeliver = queue.push(.value(v))   // false: queued for the current deliverer
/// lock.unlock()
/// if mustDeliver { /* deliver v, then under the lock call next() until it returns nil */ }
/// ```
/// Values reach the queue only once the downstream's demand has been charged for them,
/// so with finite demand it holds at most that many.
struct DeliveryQueue<Input, Failure: Error> {
    /// One call owed to the downstream.
    enum Event {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    /// Whether a thread is delivering, and so will deliver whatever is pushed. The
    /// scheduling operators drive it by hand with ``append(_:)`` and ``popFirst()``.
    var isDelivering = false
    /// Queued events; a slot is emptied when its event is handed out, so that the
    /// deliverer holds the only copy and releases it outside the owner's lock.
    private var pending: [Event?] = []
    private var head = 0
    /// How many events wait: a plain count, which code running generic reads without
    /// touching the array of events (whose element type's metadata it would look up).
    private(set) var queuedCount = 0

    /// Accepts `event`. Returns `true` when the caller has just become the deliverer: it
    /// must deliver `event` itself after unlocking, then drain the queue with ``next()``.
    /// Otherwise the event is queued for the thread that is already delivering.
    mutating func push(_ event: Event) -> Bool {
        if isDelivering {
            pending.append(event)
            queuedCount += 1
            return false
        }
        isDelivering = true
        return true
    }

    /// For a deliverer that delivered a value without making an event (the fast path of
    /// the operators that run as generic code, where making one costs look-ups): ends its
    /// turn and returns `true` when nothing was queued meanwhile and the downstream
    /// returned no demand; otherwise returns `false`, and the deliverer adds the demand
    /// and goes on with ``next()``. Always inlined: called from generic code, it made the
    /// caller look up this type's metadata at each call.
    @inline(__always)
    mutating func endTurnIfIdle(returned more: Subscribers.Demand) -> Bool {
        guard more == .none, queuedCount == 0 else { return false }
        isDelivering = false
        return true
    }

    /// The next queued event for the deliverer; `nil` ends its turn.
    mutating func next() -> Event? {
        if head < pending.count {
            var event: Event?
            swap(&event, &pending[head])
            head += 1
            queuedCount -= 1
            return event
        }
        if head > 0 {
            // Every slot is already empty: nothing is released here, under the lock.
            pending.removeAll(keepingCapacity: true)
            head = 0
        }
        isDelivering = false
        return nil
    }

    /// Queues `event` without deciding who delivers it (see ``isDelivering``).
    mutating func append(_ event: Event) {
        pending.append(event)
        queuedCount += 1
    }

    /// Removes and returns the oldest event, leaving ``isDelivering`` alone. The storage
    /// is kept for reuse, so a steady stream allocates nothing.
    mutating func popFirst() -> Event? {
        guard head < pending.count else { return nil }
        var event: Event?
        swap(&event, &pending[head])
        head += 1
        queuedCount -= 1
        if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        }
        return event
    }

    /// Drops every queued event (on cancel) and returns them, so that the caller releases
    /// them after unlocking. A thread that is delivering finds nothing more and stops.
    mutating func removeAll() -> [Event?] {
        var dropped: [Event?] = []
        swap(&dropped, &pending)
        head = 0
        queuedCount = 0
        return dropped
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
