/// The observer behind `sink(receiveValue:)` on the library's own property publishers:
/// a closure made where the value type is known, so that a notification costs a call
/// and no generic metadata look-ups (a `Subscribers.Sink` behind a generic subscription
/// runs unspecialized code on every value).
@usableFromInline
final class ValueObserver<Value>: PropertyObserver<Value>, Cancellable, @unchecked Sendable {
    // `@unchecked Sendable`: `body` is immutable and only called by the channel's
    // delivering thread; the base class documents the rest.

    @usableFromInline let body: (PropertyEvent<Value>) -> Void

    @usableFromInline
    init(channel: PropertyChannel<Value>, options: KeyValueObservingOptions, body: @escaping (PropertyEvent<Value>) -> Void) {
        self.body = body
        super.init(channel: channel, options: options)
    }

    override func receive(_ event: PropertyEvent<Value>) { body(event) }

    @usableFromInline
    func cancel() { unregister() }
}

extension PropertyChannel {
    /// Subscribes `receiveValue` to the values of this channel (current first when
    /// `initial`); the fast path of the property publishers' `sink(receiveValue:)`.
    @inlinable
    func sink(initial: Bool, receiveValue: @escaping (Value) -> Void) -> AnyCancellable {
        let observer = ValueObserver<Value>(channel: self, options: initial ? [.initial, .new] : [.new]) { event in
            if !event.isPrior, let value = event.new { receiveValue(value) }
        }
        observer.register()
        return AnyCancellable(object: observer)
    }
}
