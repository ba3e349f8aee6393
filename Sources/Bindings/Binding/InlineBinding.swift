extension Publisher where Failure == Never {
    /// Binds this publisher to `target` with a closure: each value is handed to the
    /// closure with the target, until the target deinitialises. The binding is stored in
    /// the target's `subscriptions`.
    ///
    /// ```swift
    /// person.reactive.firstName.bind(to: label) { label, name in label.text = name }
    /// ```
    /// `isolation` is the caller's: bound on the main actor, the closure is main-actor
    /// isolated, so it only ever runs on the main thread (see ``BindingSink``).
    @discardableResult
    public func bind<Target: BindingOwner>(
        to target: Target, isolation: isolated (any Actor)? = #isolation,
        _ receiveValue: @escaping (Target, Output) -> Void
    ) -> AnyCancellable {
        BindingSink(owner: target, delivery: BindingDelivery(isolation), receiveValue: receiveValue, receiveCompletion: nil)
            .bind(self)
    }

    /// Binds this publisher to `target`, delivering on `scheduler`.
    ///
    /// ```swift
    /// model.reactive.load.bind(to: view, on: DispatchQueue.main) { view, load in view.show(load) }
    /// ```
    @discardableResult
    public func bind<Target: BindingOwner, S: Scheduler>(
        to target: Target, on scheduler: S, isolation: isolated (any Actor)? = #isolation,
        _ receiveValue: @escaping (Target, Output) -> Void
    ) -> AnyCancellable {
        BindingSink(owner: target, delivery: BindingDelivery(isolation), receiveValue: receiveValue, receiveCompletion: nil)
            .bind(receive(on: scheduler))
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
