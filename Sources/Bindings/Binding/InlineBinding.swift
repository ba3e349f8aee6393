extension Publisher where Failure == Never {
    /// Binds this publisher to `target` with a closure: each value is handed to the
    /// closure with the target, until the target deinitialises. The binding is stored in
    /// the target's `subscriptions`.
    ///
    /// ```swift
    /// person.reactive.firstName.bind(to: label) { label, name in label.text = name }
    /// ```
    @discardableResult
    public func bind<Target: BindingOwner>(
        to target: Target, _ receiveValue: @escaping (Target, Output) -> Void
    ) -> AnyCancellable {
        BindingSink(owner: target, receiveValue: receiveValue).bind(self)
    }

    /// Binds this publisher to `target`, delivering on `scheduler`.
    ///
    /// ```swift
    /// model.reactive.load.bind(to: view, on: DispatchQueue.main) { view, load in view.show(load) }
    /// ```
    @discardableResult
    public func bind<Target: BindingOwner, S: Scheduler>(
        to target: Target, on scheduler: S, _ receiveValue: @escaping (Target, Output) -> Void
    ) -> AnyCancellable {
        BindingSink(owner: target, receiveValue: receiveValue).bind(receive(on: scheduler))
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
}
