/// A standalone observable value: thread-safe, and a publisher of its current value,
/// then of every update.
///
/// ```swift
/// let title = ObservableValue("Title")
/// let c = title.sink { print($0) }   // "Title"
/// title.update("New Title")          // "New Title"; title.value == "New Title"
/// ```
///
/// Updates from any number of threads are atomic and ordered: every subscriber receives
/// the values in the order they were stored, and ends with the current one. Subscribing
/// does not keep the value alive: when it is released, its subscribers receive
/// `.finished`.
public final class ObservableValue<Value>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Value
    /// This publisher cannot fail.
    public typealias Failure = Never

    @usableFromInline let storage: Storage
    @usableFromInline let channel: PropertyChannel<Value>

    /// The value. `@unchecked Sendable`: `value` is only touched with the channel's lock
    /// held (`read`, which the channel calls under it; `value`'s getter; `update`'s
    /// `accept`), and in `init`.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    /// Creates an observable value.
    public init(_ value: Value) {
        let storage = Storage(value)
        self.storage = storage
        channel = PropertyChannel(key: nil, ownerID: nil, read: { storage.value })
        // Updates reach subscribers at once in a batch; key paths and reactions that
        // read the value wait for the flush.
        channel.notifiesInBatches = true
    }

    /// The value is gone: its subscribers finish, and its listeners are released. Without
    /// this, the channel and the observers still registered with it (which hold the
    /// channel) would keep each other alive: a listener has no token to end it.
    deinit { channel.close() }

    /// The current value. Setting it is the same as ``update(_:)``.
    ///
    /// A read counts as a dependency, as an `@Observed` property's does: `autorun` runs
    /// again after an update of a value it read, and a computed key path whose getter
    /// reads it notifies its observers.
    public var value: Value {
        get {
            channel.trackRead()
            return channel.withLock { storage.value }
        }
        set { update(newValue) }
    }

    /// Stores `newValue` and delivers it to every subscriber.
    @inlinable
    public func update(_ newValue: Value) {
        let storage = self.storage
        // Inlined where `Value` is known: a `sink` gets the value from specialized code.
        channel.send(
            PropertyEvent(isPrior: false, old: nil, new: newValue),
            accept: { [channel] in
                storage.value = newValue
                // Under the lock: a subscriber joining while another thread delivers
                // catches up with a value sent meanwhile (see `Channel.join`).
                channel.countChange()
                return true
            },
            calling: PropertyChannel.call)
    }

    /// Attaches a closure that receives the current value, then every update: the same as
    /// `Publisher.sink(receiveValue:)`, on a path with no generic overhead.
    ///
    /// ```swift
    /// let c = title.sink { print($0) }   // "Title", then each update
    /// ```
    ///
    /// Called from main-actor code (`isolation`, filled in for you), the closure runs on
    /// the main queue only: at once when the value is sent there, otherwise through the
    /// main queue, in order. From another actor it runs on that actor, asynchronously, in
    /// order, but for what the subscription sends at once (a current value), which it
    /// gets before this returns. From nonisolated code it runs on the thread that sends.
    @inlinable
    public func sink(
        isolation: isolated (any Actor)? = #isolation, receiveValue: @escaping (Value) -> Void
    ) -> AnyCancellable {
        CallerIsolation.sink(isolation, receiveValue) { PropertyChannel.sink(channel, initial: true, receiveValue: $0) }
    }

    /// Attaches `subscriber`: it receives the current value, then every update.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        PropertySubscription(
            channel: channel, options: [.initial, .new], downstream: subscriber)
        .handOver()
    }
}

// Checked: `storage` and `channel` are `let`s of `Sendable` types (`Storage` documents
// `value`); values cross threads only when `Value` is itself `Sendable`.
extension ObservableValue: Sendable where Value: Sendable {}
