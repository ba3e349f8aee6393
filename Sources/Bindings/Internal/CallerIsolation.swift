/// Where a callback was made, as the `isolation` parameter of `sink` and `observe` tells.
@usableFromInline
enum CallerIsolation {
    /// Whether `isolation` is the main actor; `nil` (nonisolated code, the common case
    /// of a library's own code and of the benchmarks) is told apart with no look-up of
    /// `MainActor.shared`.
    @inlinable @inline(__always)
    static func isMainActor(_ isolation: (any Actor)?) -> Bool {
        guard let isolation else { return false }
        return isolation === MainActor.shared
    }
}

extension CallerIsolation {
    /// Subscribes `receive` through `subscribe` so that it runs where it was made: through
    /// a ``MainActorDelivery`` for main-actor code, an ``ActorDelivery`` for another
    /// actor's, and as it is (on the sending thread) for nonisolated code, the case that
    /// costs one comparison with `nil`. The one rule of every `sink`.
    @inlinable @inline(__always)
    static func sink<Event>(
        _ isolation: isolated (any Actor)?, _ receive: @escaping (Event) -> Void,
        _ subscribe: (@escaping (Event) -> Void) -> AnyCancellable
    ) -> AnyCancellable {
        if isolation == nil { return subscribe(receive) }
        if isMainActor(isolation) { return MainActorDelivery.sink(receive, subscribe) }
        return ActorDelivery.sink(on: isolation, receive, subscribe)
    }

    /// `body`, a binding's closure, as it must be called: as it is when made in
    /// nonisolated or main-actor code (the binding machinery keeps a main-actor owner's
    /// closures on the main queue), and through an ``ActorDelivery`` on the actor it was
    /// made on otherwise. The owner travels to the actor weakly: a binding never keeps
    /// its owner alive.
    @usableFromInline
    static func onCallerActor<Target: AnyObject, Value>(
        _ isolation: isolated (any Actor)?, _ body: @escaping (Target, Value) -> Void
    ) -> (Target, Value) -> Void {
        guard isolation != nil, !CallerIsolation.isMainActor(isolation) else { return body }
        return actorDelivery(isolation, body).deliver
    }

    /// `body` through an ``ActorDelivery`` on `isolation`, the owner traveling weakly;
    /// and the delivery.
    private static func actorDelivery<Target: AnyObject, Value>(
        _ isolation: isolated (any Actor)?, _ body: @escaping (Target, Value) -> Void
    ) -> (delivery: ActorDelivery<(WeakReference<Target>, Value)>, deliver: (Target, Value) -> Void) {
        let (delivery, deliver) = ActorDelivery<(WeakReference<Target>, Value)>.make(on: isolation) { event in
            if let target = event.0.object { body(target, event.1) }
        }
        return (delivery, { target, value in deliver((WeakReference(target), value)) })
    }
}

extension CallerIsolation {
    /// ``onCallerActor(_:_:)`` for a closure that `subscribe` subscribes at once (a
    /// listener's handler): what the subscription delivers while `subscribe` runs, on the
    /// actor (the current value), runs at once, as everywhere else (see
    /// `ActorDelivery.subscribing(_:)`).
    @usableFromInline @discardableResult
    static func subscribingOnCallerActor<Target: AnyObject, Value, Result>(
        _ isolation: isolated (any Actor)?, _ body: @escaping (Target, Value) -> Void,
        _ subscribe: (@escaping (Target, Value) -> Void) -> Result
    ) -> Result {
        guard isolation != nil, !CallerIsolation.isMainActor(isolation) else { return subscribe(body) }
        let (delivery, deliver) = actorDelivery(isolation, body)
        return delivery.subscribing { subscribe(deliver) }
    }
}

/// A binding's two closures, as one event stream (see
/// `CallerIsolation.onCallerActor(_:_:_:)`).
@usableFromInline
enum BindingEvent<Target: AnyObject, Value> {
    case value(WeakReference<Target>, Value)
    case completion(WeakReference<Target>)
}

extension CallerIsolation {
    /// A binding's value and completion closures, as they must be called (see
    /// ``onCallerActor(_:_:)``), through one delivery, so that the completion comes after
    /// the values on the actor too.
    @usableFromInline
    static func onCallerActor<Target: AnyObject, Value>(
        _ isolation: isolated (any Actor)?, _ receiveValue: @escaping (Target, Value) -> Void,
        _ receiveCompletion: @escaping (Target) -> Void
    ) -> ((Target, Value) -> Void, (Target) -> Void) {
        guard isolation != nil, !isMainActor(isolation) else { return (receiveValue, receiveCompletion) }
        let (_, deliver) = ActorDelivery<BindingEvent<Target, Value>>.make(on: isolation) { event in
            switch event {
            case .value(let target, let value): if let target = target.object { receiveValue(target, value) }
            case .completion(let target): if let target = target.object { receiveCompletion(target) }
            }
        }
        return (
            { target, value in deliver(.value(WeakReference(target), value)) },
            { target in deliver(.completion(WeakReference(target))) }
        )
    }
}
