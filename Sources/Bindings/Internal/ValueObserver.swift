import Synchronization

/// The observer behind `sink(receiveValue:)` on the library's own property publishers:
/// it holds the user's closure itself, made where the value type is known, so that a
/// notification costs one call and no generic metadata look-ups (a `Subscribers.Sink`
/// behind a generic subscription runs unspecialized code on every value), and so that a
/// subscription is two small objects: this and the `AnyCancellable` pointing at it.
///
/// Not final: a binding's observer (``BindingObserver``) is one too, so that the channel
/// calls its closure the same way.
@usableFromInline
class ValueObserver<Value>: PropertyObserver<Value>, @unchecked Sendable {
    // `@unchecked Sendable`: `receiveValue` is a `let`, called by one thread at a time
    // (the channel's deliverer; for the initial value, the registering thread before the
    // observer joins). The base classes document the rest.

    /// The user's closure. A `let`, so that a delivery calls it without retaining and
    /// releasing its context (a `var` would cost that, per observer, per change). What it
    /// captures goes with the observer, which goes as soon as the channel lets go of it:
    /// when the model is gone, the channel takes over the `AnyCancellable`'s reference
    /// (see ``ChannelObserver/handle``), so nothing attached to a model outlives it (SPEC
    /// section 6) even while that `AnyCancellable` is kept.
    @usableFromInline final let receiveValue: (Value) -> Void

    @usableFromInline
    init(channel: PropertyChannel<Value>, options: KeyValueObservingOptions, receiveValue: consuming @escaping (Value) -> Void) {
        self.receiveValue = receiveValue
        super.init(channel: channel, options: options, flags: ValueObserverFlag.bit)
    }

    /// Registers a new observer made by ``PropertyChannel/sink(_:initial:receiveValue:)``;
    /// returns `false` if the channel is closed (its model is gone). A method, so that
    /// `channel` is read from `self` with no retain.
    @inlinable
    final func registerAsSink(initial: Bool, snapshot: PropertyChannel<Value>.Snapshot?) -> Bool {
        if channel.isDerived {
            registerNew(snapshot: snapshot)
            return registration.load(ordering: .relaxed) != 3   // 3: ended (nobody could cancel yet)
        }
        // See `cancelFromHandle()`; asking for neither old values nor prior notices.
        return channel.add(self, needsOld: false, needsPrior: false, initial: initial, snapshot: snapshot)
    }

    /// The model was gone before the observer could register: let go of the closure now,
    /// rather than when the `AnyCancellable` goes (it cancels nothing then).
    @usableFromInline
    final func endUnregistered() {
        let taken = channel.withLock { takeHandleReferences() }
        for _ in 0..<taken { Unmanaged.passUnretained(self).release() }
    }

    final override func receive(_ event: PropertyEvent<Value>) {
        if !event.isPrior, let value = event.new { receiveValue(value) }
    }

    /// Called once: an observer of this kind has exactly one `AnyCancellable` (a
    /// binding's has two, and its own cancellation).
    override func cancelFromHandle() {
        guard !channel.isDerived else {
            // The handle lets go itself: forget it under the lock (see `handle`), since
            // `unregister()` reaches the channel only if the observer is registered.
            channel.withLock { handle = nil }
            unregister()
            return
        }
        // Of a plain channel (not derived), no other step depends on `registration`:
        // `sourceEnded()` and `releaseInterest()` do nothing here, and the channel's lock
        // orders this removal with the registration. So two atomic exchanges are spared.
        cancelled.store(true, ordering: .releasing)
        channel.remove(self)
    }
}

extension PropertyChannel {
    /// Subscribes `receiveValue` to the values of `channel` (current first when
    /// `initial`, from `snapshot` if it is still current); the fast path of the property
    /// publishers' `sink(receiveValue:)`.
    ///
    /// `channel` is consumed: the caller's reference (a publisher's, made for this
    /// subscription) becomes the observer's, with no retain and release in between.
    /// `@inline(never)`: specialized where it is used, but kept whole; inlined into the
    /// caller's loop, the optimizer added retains around the parts.
    @inlinable @inline(never)
    static func sink(
        _ channel: consuming PropertyChannel<Value>, initial: Bool, snapshot: Snapshot? = nil,
        receiveValue: consuming @escaping (Value) -> Void
    ) -> AnyCancellable {
        // Built from raw bits: an array literal of options costs a loop and a buffer.
        let options = KeyValueObservingOptions(rawValue: initial ? 0x05 : 0x01)   // [.initial, .new] or [.new]
        let observer = ValueObserver<Value>(channel: consume channel, options: options, receiveValue: receiveValue)
        // The cancellable takes the observer's only reference (no retain and release
        // around it); from here on the cancellable keeps it alive for this function.
        let unmanaged = Unmanaged.passUnretained(observer)
        let cancellable = AnyCancellable(target: consume observer)
        let registered = unmanaged._withUnsafeGuaranteedRef { observer in
            // Before the observer is registered, so that the channel finds its handle if
            // the model goes at any point after (see `handle`).
            observer.handle = Unmanaged.passUnretained(cancellable)
            return observer.registerAsSink(initial: initial, snapshot: snapshot)
        }
        if !registered {
            // Rare (the model is gone): a reference of its own, since this lets the
            // cancellable's go.
            unmanaged.takeUnretainedValue().endUnregistered()
        }
        return cancellable
    }
}

/// The bit of ``ChannelObserver/optionBits`` that marks a ``ValueObserver``, which
/// `PropertyChannel.sendChange` calls directly. The options use the low four bits.
@usableFromInline
enum ValueObserverFlag {
    @inlinable static var bit: UInt8 { 0x80 }
}
