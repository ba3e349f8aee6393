extension Observed {
    /// The publisher of an `@Observed` property, its projection `$property`: the current
    /// value when subscribed, then the value of every set, on the thread that set it.
    /// It finishes when the model is gone, and never keeps the model alive.
    ///
    /// ```swift
    /// let c = person.$firstName.sink { print($0) }   // "Ada", then each new name
    /// ```
    public struct Publisher: Bindings.Publisher {
        /// The kind of values this publisher publishes.
        public typealias Output = Value
        /// This publisher cannot fail.
        public typealias Failure = Never

        @usableFromInline let channel: PropertyChannel<Value>
        /// The value when the projection was read, and which set it followed: a
        /// subscription made before the next set starts from it (see
        /// ``PropertyChannel/Snapshot``).
        @usableFromInline let snapshot: PropertyChannel<Value>.Snapshot
        /// What the projection's setter is to do with this projection (see
        /// `Observed.subscript(_enclosingInstance:projected:storage:)`): start an
        /// `assign(to:)` given it, or store a value the assignment sends; `nil` otherwise.
        @usableFromInline var request: ProjectionRequest<Value>?

        @inlinable
        init(channel: PropertyChannel<Value>, snapshot: PropertyChannel<Value>.Snapshot) {
            self.channel = channel
            self.snapshot = snapshot
            request = nil
        }

        /// A projection that, set, stores `value` in the property and notifies its
        /// observers: how an `assign(to:)` sets the property (see ``ProjectionRequest``).
        @inlinable
        init(channel: PropertyChannel<Value>, storing value: consuming Value) {
            self.channel = channel
            snapshot = PropertyChannel.Snapshot(value: value, version: 0)
            request = .store
        }

        /// Attaches `subscriber`: it receives the current value, then the value of every set, and `.finished` once the model is gone.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            PropertySubscription(
                channel: channel, options: [.initial, .new], downstream: subscriber, snapshot: snapshot)
            .handOver()
        }

        /// Attaches a closure that receives the current value, then every new one: the
        /// same as `Publisher.sink(receiveValue:)`, on a path with no generic overhead.
        ///
        /// Called from main-actor code (`isolation`, filled in for you), the closure runs
        /// on the main queue only: at once when the value is set there, otherwise through
        /// the main queue, in order. From another actor it runs on that actor,
        /// asynchronously, in order, but for what the subscription sends at once (a
        /// current value), which it gets before this returns. From nonisolated code it
        /// runs on the thread that sets.
        @inlinable
        public consuming func sink(
            isolation: isolated (any Actor)? = #isolation, receiveValue: consuming @escaping (Value) -> Void
        ) -> AnyCancellable {
            // Nonisolated code straight from this consumed publisher's fields: copied into
            // the closure below, the channel costs a retain and a release more.
            if isolation == nil {
                return PropertyChannel.sink(channel, initial: true, snapshot: snapshot, receiveValue: receiveValue)
            }
            let channel = channel
            let snapshot = snapshot
            return CallerIsolation.sink(isolation, receiveValue) {
                PropertyChannel.sink(channel, initial: true, snapshot: snapshot, receiveValue: $0)
            }
        }
    }
}
