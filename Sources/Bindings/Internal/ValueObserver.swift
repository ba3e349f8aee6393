/// The observer behind `sink(receiveValue:)` on the library's own property publishers:
/// it holds the user's closure itself, made where the value type is known, so that a
/// notification costs one call and no generic metadata look-ups (a `Subscribers.Sink`
/// behind a generic subscription runs unspecialized code on every value), and so that a
/// subscription is two small objects: this and the `AnyCancellable` pointing at it.
@usableFromInline
final class ValueObserver<Value>: PropertyObserver<Value>, @unchecked Sendable {
    // `@unchecked Sendable`: `receiveValue` is only called by the channel's delivering
    // thread, and replaced once, in `detached()`, when no delivery can reach the observer
    // any more (the channel's lock orders the two); the base class documents the rest.

    /// The user's closure; released as soon as the channel lets go of the observer, so
    /// that what it captures does not live on with the `AnyCancellable`.
    @exclusivity(unchecked) @usableFromInline var receiveValue: (Value) -> Void

    @usableFromInline
    init(channel: PropertyChannel<Value>, options: KeyValueObservingOptions, receiveValue: consuming @escaping (Value) -> Void) {
        self.receiveValue = receiveValue
        super.init(channel: channel, options: options, flags: ValueObserverFlag.bit)
    }

    override func detached() { receiveValue = { _ in } }

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
        channel.remove(self, needsOld: false, needsPrior: false)
    }
}

extension PropertyChannel {
    /// Subscribes `receiveValue` to the values of this channel (current first when
    /// `initial`); the fast path of the property publishers' `sink(receiveValue:)`.
    @inlinable
    func sink(initial: Bool, receiveValue: consuming @escaping (Value) -> Void) -> AnyCancellable {
        // Built from raw bits: an array literal of options costs a loop and a buffer.
        let options = KeyValueObservingOptions(rawValue: initial ? 0x05 : 0x01)   // [.initial, .new] or [.new]
        let observer = ValueObserver<Value>(channel: self, options: options, receiveValue: receiveValue)
        if isDerived {
            observer.registerNew()
        } else {
            // See `cancelFromHandle()`; asking for neither old values nor prior notices.
            add(observer, needsOld: false, needsPrior: false, initial: initial)
        }
        return AnyCancellable(target: consume observer)
    }
}

/// The bit of ``ChannelObserver/optionBits`` that marks a ``ValueObserver``, which
/// `PropertyChannel.sendChange` calls directly. The options use the low four bits.
@usableFromInline
enum ValueObserverFlag {
    @inlinable static var bit: UInt8 { 0x80 }
}
