extension Publisher where Failure == Never {
    /// Binds this publisher to `target` with a closure: each value is handed to the
    /// closure with the target, until the target deinitialises. The binding is stored in
    /// the target's `subscriptions`.
    ///
    /// ```swift
    /// person.reactive.firstName.bind(to: label) { label, name in label.text = name }
    /// ```
    /// `isolation` is the caller's: bound on the main actor, the closure is main-actor
    /// isolated, so it only ever runs on the main thread (see ``BindingSink``); bound
    /// elsewhere, it runs on the thread that sends each value. The compiler picks this
    /// overload for targets whose conformance to ``BindingOwner`` is nonisolated.
    ///
    /// Made as `<~` makes a binding: a property publisher's binding is registered straight
    /// on the property's channel, and the closure is compiled where `bind` is called.
    @inlinable
    @discardableResult
    public func bind<Target: BindingOwner & SendableMetatype>(
        to target: Target, isolation: isolated (any Actor)? = #isolation,
        _ receiveValue: @escaping (Target, Output) -> Void
    ) -> AnyCancellable {
        CallerIsolation.subscribingOnCallerActor(isolation, receiveValue) { receiveValue in
            Bindings.bind(
                self,
                to: BindingSink(
                    owner: target, delivery: .forNonisolatedOwner(isolation), receiveValue: receiveValue, receiveCompletion: nil))
        }
    }

    /// Binds this publisher to `target` with a closure, for a target whose conformance to
    /// ``BindingOwner`` may be isolated (a main-actor owner, or a generic owner type).
    ///
    /// ```swift
    /// model.reactive.status.bind(to: statusLine) { line, status in line.text = status }   // on the main actor
    /// ```
    /// Bound on the main actor or on the main thread, the closure only ever runs on the
    /// main thread; bound elsewhere, on the thread that sends each value.
    @inlinable
    @discardableResult
    public func bind<Target: BindingOwner>(
        to target: Target, isolation: isolated (any Actor)? = #isolation,
        _ receiveValue: @escaping (Target, Output) -> Void
    ) -> AnyCancellable {
        CallerIsolation.subscribingOnCallerActor(isolation, receiveValue) { receiveValue in
            Bindings.bind(
                self,
                to: BindingSink(
                    owner: target, delivery: .forOwnerOfUnknownIsolation(isolation), receiveValue: receiveValue, receiveCompletion: nil))
        }
    }

    /// Binds this publisher to `target`, delivering on `scheduler`.
    ///
    /// ```swift
    /// model.reactive.load.bind(to: view, on: DispatchQueue.main) { view, load in view.show(load) }
    /// ```
    /// The closure runs on `scheduler`, and (for a closure made on the main actor) on the
    /// main thread. The compiler picks this overload for targets whose conformance to
    /// ``BindingOwner`` is nonisolated.
    @discardableResult
    public func bind<Target: BindingOwner & SendableMetatype, S: Scheduler>(
        to target: Target, on scheduler: S, isolation: isolated (any Actor)? = #isolation,
        _ receiveValue: @escaping (Target, Output) -> Void
    ) -> AnyCancellable {
        CallerIsolation.subscribingOnCallerActor(isolation, receiveValue) { receiveValue in
            BindingSink(
                owner: target, delivery: .forNonisolatedOwner(isolation), receiveValue: receiveValue, receiveCompletion: nil
            ).bind(receive(on: scheduler))
        }
    }

    /// Binds this publisher to `target`, delivering on `scheduler`, for a target whose
    /// conformance to ``BindingOwner`` may be isolated: bound on the main actor or on the
    /// main thread, the closure only ever runs on the main thread.
    @discardableResult
    public func bind<Target: BindingOwner, S: Scheduler>(
        to target: Target, on scheduler: S, isolation: isolated (any Actor)? = #isolation,
        _ receiveValue: @escaping (Target, Output) -> Void
    ) -> AnyCancellable {
        CallerIsolation.subscribingOnCallerActor(isolation, receiveValue) { receiveValue in
            BindingSink(
                owner: target, delivery: .forOwnerOfUnknownIsolation(isolation), receiveValue: receiveValue, receiveCompletion: nil
            ).bind(receive(on: scheduler))
        }
    }

    /// Binds this publisher to a binding target, delivering on `scheduler`.
    ///
    /// ```swift
    /// label.reactive.text <~ ...   // on the sending thread
    /// source.bind(to: label.reactive.text, on: DispatchQueue.main)
    /// ```
    @discardableResult
    public func bind<Target: BindingTargetConvertible, S: Scheduler>(
        to target: Target, on scheduler: S
    ) -> AnyCancellable where Target.Input == Output {
        target.bindingSink.bind(receive(on: scheduler))
    }

    /// Binds this publisher to a binding target of `Output?`, lifting each value, and
    /// delivering on `scheduler`, as `<~` lifts.
    ///
    /// ```swift
    /// person.reactive.firstName.bind(to: label.reactive.text, on: DispatchQueue.main)   // String into String?
    /// ```
    @discardableResult
    public func bind<Target: BindingTargetConvertible, S: Scheduler>(
        to target: Target, on scheduler: S
    ) -> AnyCancellable where Target.Input == Output? {
        target.bindingSink.bind(map { Optional($0) }.receive(on: scheduler))
    }
}
