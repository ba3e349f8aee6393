import Synchronization

/// The base of the observers that users hold: a KVO-style change handler
/// (`observe(_:options:changeHandler:)`) or a Combine subscription to a property.
///
/// It registers with its channel once (``register()``) and unregisters once, whichever
/// of cancel, and the end of the source, comes first, from any thread.
@usableFromInline
class PropertyObserver<Value>: ChannelObserver<PropertyEvent<Value>>, UnregisteringObserver, @unchecked Sendable {
    // `@unchecked Sendable`: `registration` and `cancelled` are atomics; `channel` and
    // `optionBits` (the options) are `let`s; `slot` and `handle` are guarded by the
    // channel's lock (see `ChannelObserver`). Subclasses document their own state.

    /// Strong: an observer never keeps the model alive (a channel does not), and a weak
    /// reference would give the channel a side table, which slows every retain of it.
    /// The channel holds the observer while registered; the cycle ends on unregister or
    /// when the channel closes (its model is gone).
    @usableFromInline let channel: PropertyChannel<Value>

    /// The options, kept in the base class's spare byte (see ``ChannelObserver``).
    @inlinable
    final var options: KeyValueObservingOptions { KeyValueObservingOptions(rawValue: UInt(optionBits & 0x0F)) }

    // `registration` (in the base class): 0 idle, 1 registering, 2 registered,
    // 3 cancelled or ended.

    /// `flags` go to the high bits of `optionBits` (see ``ValueObserverFlag``).
    @inlinable
    init(channel: consuming PropertyChannel<Value>, options: KeyValueObservingOptions, flags: UInt8 = 0) {
        // A derived key path's observation is told at once (on the model's isolation,
        // where observers are made), so that it tracks the model before any change.
        // Only derived channels have one; for the others this is one load. Read before
        // `channel` moves into the property: read after, it cost a retain and a release.
        let interest = channel.isDerived ? channel.derivedInterest : nil
        self.channel = consume channel
        super.init(optionBits: UInt8(truncatingIfNeeded: options.rawValue & 0x0F) | flags)
        if let interest {
            interest.addInterest(prior: options.contains(.prior), old: options.contains(.old) || options.contains(.prior))
        }
    }

    /// The same, for a ``PropertyValueReceiver`` (see `ChannelObserver`'s initializers).
    @inlinable
    init(valueReceiverOf channel: consuming PropertyChannel<Value>, options: KeyValueObservingOptions) {
        let interest = channel.isDerived ? channel.derivedInterest : nil
        self.channel = consume channel
        super.init(propertyValueReceiverWith: UInt8(truncatingIfNeeded: options.rawValue & 0x0F))
        if let interest {
            interest.addInterest(prior: options.contains(.prior), old: options.contains(.old) || options.contains(.prior))
        }
    }

    deinit {
        // Made but never registered nor cancelled (a subscription that got no demand).
        if registration.load(ordering: .acquiring) != 3 { releaseInterest() }
    }

    /// Tells a derived key path's observation that this observer is gone; called once,
    /// by whoever moves `registration` to 3.
    @inlinable
    final func releaseInterest() {
        if channel.isDerived, let interest = channel.derivedInterest {
            interest.removeInterest(prior: options.contains(.prior), old: options.contains(.old) || options.contains(.prior))
        }
    }

    @inlinable var needsOld: Bool { options.contains(.old) }
    @inlinable var needsPrior: Bool { options.contains(.prior) }

    /// Registers with the channel; with `.initial` the current value arrives first.
    /// Does nothing if already registered or cancelled.
    ///
    /// `@inlinable` (with `unregister()` and the channel calls below it): specialized at
    /// the subscription site, a subscription makes no generic metadata look-ups, which
    /// measured most of the cost of subscribe + cancel.
    /// `snapshot`: the value as the caller read it (see ``PropertyChannel/Snapshot``).
    @inlinable
    final func register(snapshot: PropertyChannel<Value>.Snapshot? = nil) {
        guard registration.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
        else { return }
        completeRegistration(snapshot: snapshot)
    }

    /// ``register(snapshot:)`` for an observer that no other thread can see yet (just
    /// made, its cancellable not handed out): the first step needs no atomic exchange.
    @inlinable
    final func registerNew(snapshot: PropertyChannel<Value>.Snapshot? = nil) {
        registration.store(1, ordering: .relaxed)
        completeRegistration(snapshot: snapshot)
    }

    /// Adds the observer to its channel, `registration` being 1.
    @inlinable
    final func completeRegistration(snapshot: PropertyChannel<Value>.Snapshot?) {
        guard channel.add(
            self, needsOld: needsOld, needsPrior: needsPrior, initial: options.contains(.initial), snapshot: snapshot)
        else {
            // The channel is closed: its model is gone.
            if registration.compareExchange(expected: 1, desired: 3, ordering: .acquiringAndReleasing).exchanged {
                releaseInterest()
                sourceEnded()
            }
            return
        }
        if !registration.compareExchange(expected: 1, desired: 2, ordering: .acquiringAndReleasing).exchanged {
            // Cancelled while registering: the cleanup is ours.
            channel.remove(self, needsOld: needsOld, needsPrior: needsPrior)
        }
    }

    /// Stops delivery at once and unregisters. Idempotent, thread-safe.
    @inlinable
    final func unregister() {
        cancelled.store(true, ordering: .releasing)
        let previous = registration.exchange(3, ordering: .acquiringAndReleasing)
        if previous == 2 {
            channel.remove(self, needsOld: needsOld, needsPrior: needsPrior)
        }
        if previous != 3 { releaseInterest() }
    }

    override func sourceDidEnd() {
        // Nothing reaches an observer that was cancelled meanwhile, not even the end.
        guard registration.exchange(3, ordering: .acquiringAndReleasing) != 3 else { return }
        releaseInterest()
        sourceEnded()
    }

    /// The observed object (or the derived key path's root) is gone. Default: nothing.
    @usableFromInline
    func sourceEnded() {}
}

/// The observation behind a derived key path's channel, which needs to know how many
/// observers exist, registered or not yet, and whether any of them wants prior notices
/// or old values.
@usableFromInline
protocol DerivedInterest: AnyObject {
    /// An observer was made for the channel; called on the model's isolation.
    func addInterest(prior: Bool, old: Bool)
    /// That observer is gone; called once per observer, from any thread.
    func removeInterest(prior: Bool, old: Bool)
}

/// A ``PropertyObserver`` that a change's new value can be given to as it is
/// (``receiveNew(_:)``), by the channel's code, which is specialized where `Value` is
/// known. A ``PropertySubscription`` is one: its own code is generic over its
/// subscriber and runs unspecialized, where reading the value out of a
/// ``PropertyEvent`` looked up the event type's metadata on every change.
@usableFromInline
class PropertyValueReceiver<Value>: PropertyObserver<Value>, @unchecked Sendable {
    // `@unchecked Sendable`: no state of its own (see `PropertyObserver`).

    @inlinable
    init(channel: consuming PropertyChannel<Value>, options: KeyValueObservingOptions) {
        super.init(valueReceiverOf: channel, options: options)
    }

    /// Receives the new value of a change (not a prior notice). Must be overridden.
    @usableFromInline
    func receiveNew(_ value: Value) {
        preconditionFailure("Bindings internal error: \(Self.self) does not override receiveNew(_:)")
    }
}
