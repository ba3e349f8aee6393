import Synchronization

/// The base of the observers that users hold: a KVO-style change handler
/// (`observe(_:options:changeHandler:)`) or a Combine subscription to a property.
///
/// It registers with its channel once (``register()``) and unregisters once, whichever
/// of cancel, and the end of the source, comes first, from any thread.
class PropertyObserver<Value>: ChannelObserver<PropertyEvent<Value>>, UnregisteringObserver, @unchecked Sendable {
    // `@unchecked Sendable`: `state` is atomic; `channel` is weak and set once in init;
    // `keepAlive` and `options` are immutable. Subclasses document their own state.

    /// Weak: the channel of an `@Observed` property must die with its model, which is how
    /// observers learn that the model is gone.
    private weak var channel: PropertyChannel<Value>?
    /// A derived observation that owns `channel` (computed and chained key paths); held
    /// so that a key path with no dependencies still delivers its initial value.
    private let keepAlive: AnyObject?
    let options: KeyValueObservingOptions

    /// 0 idle, 1 registering, 2 registered, 3 cancelled.
    private let state = Atomic<UInt8>(0)

    init(channel: PropertyChannel<Value>, keepAlive: AnyObject?, options: KeyValueObservingOptions) {
        self.channel = channel
        self.keepAlive = keepAlive
        self.options = options
    }

    private var needsOld: Bool { options.contains(.old) }
    private var needsPrior: Bool { options.contains(.prior) }

    /// Registers with the channel; with `.initial` the current value arrives first.
    /// Does nothing if already registered or cancelled.
    final func register() {
        guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged,
              let channel
        else { return }
        channel.add(self, needsOld: needsOld, needsPrior: needsPrior, initial: options.contains(.initial))
        if !state.compareExchange(expected: 1, desired: 2, ordering: .acquiringAndReleasing).exchanged {
            // Cancelled while registering: the cleanup is ours.
            channel.remove(self, needsOld: needsOld, needsPrior: needsPrior)
        }
    }

    /// Stops delivery at once and unregisters. Idempotent, thread-safe.
    final func unregister() {
        cancelled.store(true, ordering: .releasing)
        let previous = state.exchange(3, ordering: .acquiringAndReleasing)
        if previous == 2, let channel {
            channel.remove(self, needsOld: needsOld, needsPrior: needsPrior)
        }
    }

    override func sourceDidEnd() {
        state.store(3, ordering: .releasing)
        sourceEnded()
    }

    /// The observed object (or the derived key path's root) is gone. Default: nothing.
    func sourceEnded() {}
}
