extension Publishers {
    /// A publisher that publishes a given sequence of elements, as in Combine.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.sink { print($0) }   // 1, 2, 3
    /// ```
    ///
    /// Demand is honoured: a subscriber that requests `.max(1)` gets one element until it
    /// asks again. It finishes right after the last element, without waiting for more
    /// demand. Each subscription iterates the sequence afresh.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The kind of values published: the sequence's elements.
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher for a sequence of elements.
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Gives `subscriber` a subscription that publishes the elements on demand.
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Elements.Element, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            guard let first = iterator.next() else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            subscriber.receive(
                subscription: Inner(downstream: subscriber, sequence: sequence, iterator: iterator, next: first))
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Publishers.Sequence {
    /// Emits elements while there is demand. Whichever thread finds it idle becomes the
    /// emitter; requests from other threads, or re-entrant ones from the subscriber, add
    /// demand for the emitter to serve.
    final class Inner<Downstream: Subscriber>: Subscription, CombineReflectable
    where Downstream.Input == Elements.Element, Downstream.Failure == Failure {
        /// Guards `downstream`, `demand`, `emitting` and `done`. The iterator may run user
        /// code, so it is advanced outside the lock, by the emitter alone.
        private let spin = CompactLock()
        /// Let go of at the end (finished or cancelled), so that a subscriber that keeps
        /// its subscription is not kept by it in turn; the emitter holds a copy while it
        /// delivers.
        @exclusivity(unchecked) private var downstream: Downstream?
        @exclusivity(unchecked) private var demand = Subscribers.Demand.none
        @exclusivity(unchecked) private var emitting = false
        /// Cancelled, or finished.
        @exclusivity(unchecked) private var done = false
        /// Only the emitter touches these; `emitting`, set and cleared under `spin`,
        /// hands them from one emitter to the next.
        @exclusivity(unchecked) private var iterator: Elements.Iterator
        @exclusivity(unchecked) private var next: Elements.Element?
        /// The sequence, for `description` and `customMirror` (Combine's show it); guarded
        /// by `spin`, and let go of at the end, as Combine's does.
        @exclusivity(unchecked) private var sequence: Elements?

        init(downstream: Downstream, sequence: Elements, iterator: Elements.Iterator, next: Elements.Element) {
            self.downstream = downstream
            self.sequence = sequence
            self.iterator = iterator
            self.next = next
        }

        /// The sequence's own description until the end, then "Sequence", as in Combine.
        var description: String {
            // Described outside the lock: a sequence's description is its own code.
            guard let sequence = spin.withLock({ self.sequence }) else { return "Sequence" }
            return String(describing: sequence)
        }

        /// The sequence (empty at the end), as Combine shows it.
        var customMirror: Mirror {
            let sequence: Any = spin.withLock { self.sequence } ?? [Elements.Element]()
            return Mirror(self, children: ["sequence": sequence])
        }

        func request(_ demand: Subscribers.Demand) {
            // `.none` is accepted (adds nothing; an operator passes it upstream, which
            // decides), as in Combine, which traps on it only in some subscriptions.
            spin.lock()
            guard !done else {
                spin.unlock()
                return
            }
            self.demand += demand
            guard !emitting, let downstream else {
                spin.unlock()
                return
            }
            emitting = true
            spin.unlock()
            // The copy is released here, after the emitter's last use of the lock.
            emit(to: downstream)
        }

        private func emit(to downstream: Downstream) {
            var more = Subscribers.Demand.none
            while true {
                spin.lock()
                demand += more
                guard !done, demand > .none, let value = next else {
                    emitting = false
                    spin.unlock()
                    return
                }
                demand -= 1
                spin.unlock()
                more = downstream.receive(value)
                next = iterator.next()
                if next == nil {
                    spin.lock()
                    let cancelled = done
                    done = true
                    emitting = false
                    let finished = (sequence.take(), self.downstream.take())
                    spin.unlock()
                    withExtendedLifetime(finished) {}   // released outside the lock
                    if !cancelled { downstream.receive(completion: .finished) }
                    return
                }
            }
        }

        func cancel() {
            let dropped = spin.withLock {
                done = true
                return (sequence.take(), downstream.take())
            }
            withExtendedLifetime(dropped) {}   // released outside the lock
        }
    }
}

extension Sequence {
    /// A publisher that publishes the elements of this sequence, then finishes.
    ///
    /// ```swift
    /// let c = ["a", "b"].publisher.sink { print($0) }   // a, b
    /// ```
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}
