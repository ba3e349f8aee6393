/// Applies the transform of `combineLatest(_:_:)` and `combineLatest(_:_:_:)` to each
/// combination, passing the upstream subscription through unchanged.
///
/// Combine's transform variants return `Publishers.Map<Publishers.CombineLatest<…>, T>`.
/// `Publishers.Map` is written on another branch; until both are merged, the transform
/// variants return this publisher type-erased, which behaves the same. Once `Map` is on
/// the same branch, they become `.map(transform)` and this file goes away.
struct CombineLatestTransform<Upstream: Publisher, Output>: Publisher {
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let transform: (Upstream.Output) -> Output

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(Inner(downstream: subscriber, transform: transform))
    }

    /// Transforms each combination. The combining subscription already serialises its
    /// calls, so the transform never runs on two threads at once.
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        let downstream: Downstream
        let transform: (Upstream.Output) -> Output
        let combineIdentifier = CombineIdentifier()

        var description: String { "CombineLatest" }

        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(transform(input))
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }
    }
}
