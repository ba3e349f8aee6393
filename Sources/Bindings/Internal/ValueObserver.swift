/// The observer behind `sink(receiveValue:)` on the library's own property publishers:
/// it holds the user's closure itself, made where the value type is known, so that a
/// notification costs one call and no generic metadata look-ups (a `Subscribers.Sink`
/// behind a generic subscription runs unspecialized code on every value), and so that a
/// subscription is two small objects: this and the `AnyCancellable` pointing at it.
@usableFromInline
final class ValueObserver<Value>: PropertyObserver<Value>, @unchecked Sendable {
    // `@unchecked Sendable`: `receiveValue` is immutable and only called by the
    // channel's delivering thread; the base class documents the rest.

    /// The user's closure. A `let`, so that a delivery calls it without retaining and
    /// releasing its context (a `var` would cost that, per observer, per change); what
    /// it captures is released by `detached()` all the same.
    @usableFromInline let receiveValue: (Value) -> Void

    @usableFromInline
    init(channel: PropertyChannel<Value>, options: KeyValueObservingOptions, receiveValue: consuming @escaping (Value) -> Void) {
        self.receiveValue = receiveValue
        super.init(channel: channel, options: options, flags: ValueObserverFlag.bit)
    }

    /// The channel has let go of this observer (the model is gone, or it was cancelled)
    /// while its `AnyCancellable` may live on: release what the closure captures now, so
    /// that nothing attached to a model outlives it (SPEC section 6).
    ///
    /// `receiveValue` is a `let` for the deliveries' sake, so this clears the stored
    /// closure's context word in place. The layout is the header, the base classes' two
    /// words, `channel`, then the closure (function, context); that is checked by finding
    /// `channel` where it should be, and should it ever differ, nothing is released early
    /// and the closure goes with the observer (the lifetime tests would say so). No
    /// delivery can reach the observer any more, so nothing calls the closure after this;
    /// `deinit` then destroys a closure with no context, which releases nothing.
    override func detached() {
        let object = UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
        let channelOffset = 32, contextOffset = 48
        guard object.load(fromByteOffset: channelOffset, as: UInt.self)
                == UInt(bitPattern: Unmanaged.passUnretained(channel).toOpaque()),
              let context = object.load(fromByteOffset: contextOffset, as: UnsafeRawPointer?.self)
        else { return }
        object.storeBytes(of: nil, toByteOffset: contextOffset, as: UnsafeRawPointer?.self)
        Unmanaged<AnyObject>.fromOpaque(context).release()
    }

    /// Registers a new observer made by ``PropertyChannel/sink(_:initial:receiveValue:)``.
    /// A method, so that `channel` is read from `self` with no retain.
    @inlinable
    final func registerAsSink(initial: Bool) {
        if channel.isDerived {
            registerNew()
        } else {
            // See `cancelFromHandle()`; asking for neither old values nor prior notices.
            channel.add(self, needsOld: false, needsPrior: false, initial: initial)
        }
    }

    override func receive(_ event: PropertyEvent<Value>) {
        if !event.isPrior, let value = event.new { receiveValue(value) }
    }

    /// Called once: an observer of this kind has exactly one `AnyCancellable`.
    override func cancelFromHandle() {
        guard !channel.isDerived else {
            unregister()
            return
        }
        // Of a plain channel (not derived), no other step depends on `registration`:
        // `sourceEnded()` and `releaseInterest()` do nothing here, and the channel's lock
        // orders this removal with the registration. So two atomic exchanges are spared.
        cancelled.store(true, ordering: .releasing)
        // The `AnyCancellable` lets go of this observer right after: no early release.
        channel.remove(self, detach: false)
    }
}

extension PropertyChannel {
    /// Subscribes `receiveValue` to the values of `channel` (current first when
    /// `initial`); the fast path of the property publishers' `sink(receiveValue:)`.
    ///
    /// `channel` is consumed: the caller's reference (a publisher's, made for this
    /// subscription) becomes the observer's, with no retain and release in between.
    /// `@inline(never)`: specialized where it is used, but kept whole; inlined into the
    /// caller's loop, the optimizer added retains around the parts.
    @inlinable @inline(never)
    static func sink(
        _ channel: consuming PropertyChannel<Value>, initial: Bool, receiveValue: consuming @escaping (Value) -> Void
    ) -> AnyCancellable {
        // Built from raw bits: an array literal of options costs a loop and a buffer.
        let options = KeyValueObservingOptions(rawValue: initial ? 0x05 : 0x01)   // [.initial, .new] or [.new]
        let observer = ValueObserver<Value>(channel: consume channel, options: options, receiveValue: receiveValue)
        observer.registerAsSink(initial: initial)
        return AnyCancellable(target: consume observer)
    }
}

/// The bit of ``ChannelObserver/optionBits`` that marks a ``ValueObserver``, which
/// `PropertyChannel.sendChange` calls directly. The options use the low four bits.
@usableFromInline
enum ValueObserverFlag {
    @inlinable static var bit: UInt8 { 0x80 }
}
