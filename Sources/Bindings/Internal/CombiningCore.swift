/// The state shared by the subscribers of a combining operator's upstreams: each
/// upstream's events, tagged with its index, and a value stored by a closure made for
/// that upstream's type.
protocol CombiningCore: AnyObject {
    /// What the upstreams' values are stored in (the latest values, or the buffers).
    associatedtype Storage
    associatedtype Failure: Error

    /// The operator's name, for `description` and reflection.
    var description: String { get }

    func receive(subscription: any Subscription, from index: Int)
    func receive<Input>(_ input: Input, from index: Int, store: (inout Storage, Input) -> Void)
    func receive(completion: Subscribers.Completion<Failure>, from index: Int)
}

/// The subscriber to one upstream of a combining operator: forwards its events, tagged
/// with its index, to the core.
struct CombiningSide<Core: CombiningCore, Input>: Subscriber, CombineReflectable {
    typealias Failure = Core.Failure

    let core: Core
    let index: Int
    let store: (inout Core.Storage, Input) -> Void
    let combineIdentifier = CombineIdentifier()

    var description: String { core.description }

    func receive(subscription: any Subscription) {
        core.receive(subscription: subscription, from: index)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        core.receive(input, from: index, store: store)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        core.receive(completion: completion, from: index)
    }
}
