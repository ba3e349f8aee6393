/// The observer behind `sink(receiveValue:)` on a subject that cannot fail: it holds the
/// user's closure itself, so that a value costs one call from code specialized where the
/// subject's types are known (``SubjectCore/call(_:_:)``), and a subscription is two small
/// objects, this and the `AnyCancellable` pointing at it, as for `$property.sink`.
///
/// Demand is unlimited, as `sink`'s is, so none is tracked. The completion removes it
/// from the subject and lets go of the closure (as `Subscribers.Sink` does), even while
/// its `AnyCancellable` is kept.
@usableFromInline
final class SubjectValueObserver<Output, Failure: Error>: ChannelObserver<SubjectEvent<Output, Failure>>,
    @unchecked Sendable
{
    // `@unchecked Sendable`: `core` and `receiveValue` are immutable; `receiveValue` is
    // only called by the subject's delivering thread, one value at a time.

    @usableFromInline let core: SubjectCore<Output, Failure>
    /// A `let`, so that a delivery calls it without retaining its context.
    @usableFromInline let receiveValue: (Output) -> Void

    @inlinable
    init(core: SubjectCore<Output, Failure>, receiveValue: @escaping (Output) -> Void) {
        self.core = core
        self.receiveValue = receiveValue
        // Kept alive by its one `AnyCancellable` (see `ChannelObserver.isKeptAliveByOwner`).
        super.init(optionBits: ValueObserverFlag.bit)
    }

    /// Queued events (a value sent while another was being delivered), and the completion.
    override func receive(_ event: SubjectEvent<Output, Failure>) {
        switch event {
        case .value(let value):
            receiveValue(value)
        case .replay:
            break   // only owed to subscribers that lacked demand
        case .completion:
            finish()
        }
    }

    /// The subject completed: leave it, and let go of the closure now (the channel's
    /// takeover of the `AnyCancellable`'s reference, as when a model goes). The removal,
    /// made during this delivery, holds the observer until the delivery is over.
    private func finish() {
        let channel = core.channel
        let taken = channel.withLock { takeHandleReferences() }
        channel.remove(self)
        for _ in 0..<taken { Unmanaged.passUnretained(self).release() }
    }

    override func cancelFromHandle() {
        core.channel.remove(self)
    }
}

extension SubjectCore {
    /// Subscribes `receiveValue` to the subject's values (the current one first, for a
    /// `CurrentValueSubject`); the fast path of `sink(receiveValue:)`.
    @inlinable
    func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        let observer = SubjectValueObserver(core: self, receiveValue: receiveValue)
        let unmanaged = Unmanaged.passUnretained(observer)
        let cancellable = AnyCancellable(target: consume observer)
        let added = unmanaged._withUnsafeGuaranteedRef { observer in
            // Before the observer is registered (see `ChannelObserver.handle`).
            observer.handle = Unmanaged.passUnretained(cancellable)
            if replaysCurrent {
                return channel.add(
                    observer, initial: { .value(current!) }, accept: { completion == nil }, calling: Self.call)
            }
            return channel.add(observer, accept: { completion == nil })
        }
        if added {
            acknowledgeDemand()   // a sink's demand is unlimited
        } else {
            // Completed already: nothing will come; let go of the closure now.
            let observer = unmanaged.takeUnretainedValue()
            let taken = channel.withLock { observer.takeHandleReferences() }
            for _ in 0..<taken { unmanaged.release() }
        }
        return cancellable
    }

    /// Delivers `event` to `observer`: a ``SubjectValueObserver``'s closure, or a
    /// ``SubjectConduitBase``'s subscriber, straight from this code, specialized where it
    /// is inlined (each marked by a bit, so no dynamic cast), with the value rather than
    /// the event; anything else through its `receive(_:)`. (A conduit's own
    /// `receive(_:)`, generic code that is never specialized, looked up the event type's
    /// metadata to take the value out, for every subscriber of every value.)
    @inlinable @inline(__always)
    static func call(_ observer: ChannelObserver<SubjectEvent<Output, Failure>>, _ event: SubjectEvent<Output, Failure>) {
        let bits = observer.optionBits
        if bits & (ValueObserverFlag.bit | SubjectConduitFlag.bit) != 0, case .value(let value) = event {
            if bits & ValueObserverFlag.bit != 0 {
                unsafeDowncast(observer, to: SubjectValueObserver<Output, Failure>.self).receiveValue(value)
            } else {
                unsafeDowncast(observer, to: SubjectConduitBase<Output, Failure>.self).receiveValue(value)
            }
        } else {
            observer.receive(event)
        }
    }
}

extension SubjectCore {
    /// ``call(_:_:)`` for a value sent now, given as it is (see ``send(_:storingAfterCompletion:)``).
    @inlinable @inline(__always)
    static func callValue(_ observer: ChannelObserver<SubjectEvent<Output, Failure>>, _ value: Output) {
        let bits = observer.optionBits
        if bits & ValueObserverFlag.bit != 0 {
            unsafeDowncast(observer, to: SubjectValueObserver<Output, Failure>.self).receiveValue(value)
        } else if bits & SubjectConduitFlag.bit != 0 {
            unsafeDowncast(observer, to: SubjectConduitBase<Output, Failure>.self).receiveValue(value)
        } else {
            observer.receive(.value(value))
        }
    }
}

extension CurrentValueSubject {
    /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`).
    @inlinable
    public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
        core.sink(receiveValue: receiveValue)
    }
}

extension PassthroughSubject {
    /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`).
    @inlinable
    public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
        core.sink(receiveValue: receiveValue)
    }
}

extension CurrentValueSubject where Failure == Never {
    /// Attaches a closure that receives the current value, then every later one: the same
    /// as `Publisher.sink(receiveValue:)`, on a path with no generic overhead.
    ///
    /// ```swift
    /// let c = temperature.sink { print($0) }   // the current value, then each new one
    /// ```
    ///
    /// Called from main-actor code (`isolation`, filled in for you), the closure runs on
    /// the main queue only: at once when the value is sent there, otherwise through the
    /// main queue, in order. From another actor it runs on that actor, asynchronously, in
    /// order, but for what the subscription sends at once (a current value), which it
    /// gets before this returns. From nonisolated code it runs on the thread that sends.
    @inlinable
    public func sink(
        isolation: isolated (any Actor)? = #isolation, receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        CallerIsolation.sink(isolation, receiveValue) { core.sink(receiveValue: $0) }
    }
}

extension PassthroughSubject where Failure == Never {
    /// Attaches a closure that receives every value sent from now on: the same as
    /// `Publisher.sink(receiveValue:)`, on a path with no generic overhead.
    ///
    /// ```swift
    /// let c = clicks.sink { print($0) }
    /// ```
    ///
    /// Called from main-actor code (`isolation`, filled in for you), the closure runs on
    /// the main queue only: at once when the value is sent there, otherwise through the
    /// main queue, in order. From another actor it runs on that actor, asynchronously, in
    /// order, but for what the subscription sends at once (a current value), which it
    /// gets before this returns. From nonisolated code it runs on the thread that sends.
    @inlinable
    public func sink(
        isolation: isolated (any Actor)? = #isolation, receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        CallerIsolation.sink(isolation, receiveValue) { core.sink(receiveValue: $0) }
    }
}
