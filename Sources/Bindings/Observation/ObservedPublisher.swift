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

        @inlinable
        init(channel: PropertyChannel<Value>) { self.channel = channel }

        /// Attaches `subscriber`: it receives the current value, then the value of every set, and `.finished` once the model is gone.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            let subscription = PropertySubscription(
                channel: channel, options: [.initial, .new], downstream: subscriber)
            subscriber.receive(subscription: subscription)
        }

        /// Attaches a closure that receives the current value, then every new one: the
        /// same as `Publisher.sink(receiveValue:)`, on a path with no generic overhead.
        @inlinable
        public consuming func sink(receiveValue: consuming @escaping (Value) -> Void) -> AnyCancellable {
            PropertyChannel.sink(channel, initial: true, receiveValue: receiveValue)
        }
    }
}
