/// Where a binding delivers: an owner, held weakly, and what to do with it for each
/// value (and, optionally, the completion).
///
/// Make custom binding targets with it in `Reactive` extensions:
///
/// ```swift
/// extension Reactive where Base: Label {
///     var shouting: BindingSink<Base, String> { BindingSink(owner: base) { $0.text = $1.uppercased() } }
/// }
/// label.reactive.shouting <~ person.reactive.firstName
/// ```
///
/// Values arrive on the thread that sent them, except where the sink's code is isolated to
/// the main actor: an owner whose conformance to ``BindingOwner`` is isolated to the main
/// actor, a sink made with a `@MainActor` closure, or one made in code isolated to the
/// main actor (whose closure the compiler treats as main-actor isolated). Those run on
/// the main thread, synchronously when the value is sent there, otherwise through the
/// main queue, in order.
public struct BindingSink<Owner: BindingOwner, Input>: BindingTargetConvertible {
    /// The owner, or `nil` once it is gone.
    public var owner: Owner? { reference.object }
    let reference: WeakReference<Owner>
    let receiveValue: (Owner, Input) -> Void
    let receiveCompletion: ((Owner) -> Void)?
    let delivery: BindingDelivery

    /// A sink that runs `receiveValue` with the owner and each value.
    ///
    /// `isolation` is the caller's: made on the main actor, the closure is main-actor
    /// isolated, so the sink only ever runs it on the main thread.
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation,
        receiveValue: @escaping (Owner, Input) -> Void
    ) {
        self.init(owner: owner, delivery: BindingDelivery(isolation), receiveValue: receiveValue, receiveCompletion: nil)
    }

    /// A sink that also runs `receiveCompletion` when the bound publisher finishes.
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation,
        receiveValue: @escaping (Owner, Input) -> Void, receiveCompletion: @escaping (Owner) -> Void
    ) {
        self.init(
            owner: owner, delivery: BindingDelivery(isolation), receiveValue: receiveValue,
            receiveCompletion: receiveCompletion)
    }

    /// A sink whose closure is isolated to the main actor: it always runs on the main
    /// thread.
    ///
    /// ```swift
    /// BindingSink(owner: view) { @MainActor view, text in view.render(text) }
    /// ```
    public init(owner: Owner, receiveValue: @escaping @MainActor (Owner, Input) -> Void) {
        let body = MainActorBody(receiveValue)
        self.init(owner: owner, delivery: .mainActor, receiveValue: body.call, receiveCompletion: nil)
    }

    init(
        owner: Owner, delivery: BindingDelivery, receiveValue: @escaping (Owner, Input) -> Void,
        receiveCompletion: ((Owner) -> Void)?
    ) {
        reference = WeakReference(owner)
        self.delivery = delivery
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
    }

    /// The sink itself: a `BindingSink` is its own binding target.
    public var bindingSink: BindingSink<Owner, Input> { self }
}

extension BindingSink where Input == Void {
    /// A sink for a publisher of `Void`: runs `receiveValue` with the owner each time.
    ///
    /// ```swift
    /// extension Reactive where Base: Button { var flash: BindingSink<Base, Void> { BindingSink(owner: base) { $0.flash() } } }
    /// ```
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation, receiveValue: @escaping (Owner) -> Void
    ) {
        self.init(
            owner: owner, delivery: BindingDelivery(isolation), receiveValue: { owner, _ in receiveValue(owner) },
            receiveCompletion: nil)
    }
}

extension BindingSink where Input == Never {
    /// A sink for a publisher that never emits a value: runs `receiveCompletion` with the
    /// owner when it finishes.
    ///
    /// ```swift
    /// extension Reactive where Base: Screen { var dismissed: BindingSink<Base, Never> { BindingSink(owner: base) { $0.close() } } }
    /// ```
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation, receiveCompletion: @escaping (Owner) -> Void
    ) {
        self.init(
            owner: owner, delivery: BindingDelivery(isolation), receiveValue: { _, _ in },
            receiveCompletion: receiveCompletion)
    }
}

/// How a binding reaches its owner's thread.
enum BindingDelivery {
    /// On the sending thread, unless the owner's `BindingOwner` conformance turns out to
    /// be isolated to the main actor (found once, on the first value sent off it).
    case detect
    /// Always on the main thread.
    case mainActor

    /// `.mainActor` for code made on the main actor. Code made on another actor runs
    /// where values are sent, as a Combine `sink` does: there is no synchronous way onto
    /// an arbitrary actor.
    init(_ isolation: (any Actor)?) {
        self = isolation === MainActor.shared ? .mainActor : .detect
    }
}

/// Calls a main-actor closure from the binding machinery, which only does so on the main
/// thread (see `BindingSubscriber`).
private struct MainActorBody<Owner, Input> {
    let body: @MainActor (Owner, Input) -> Void
    init(_ body: @escaping @MainActor (Owner, Input) -> Void) { self.body = body }
    func call(_ owner: Owner, _ input: Input) {
        // `nonisolated(unsafe)`: `BindingSubscriber` calls this only on the main thread,
        // so the owner and value do not cross threads here.
        nonisolated(unsafe) let owner = owner
        nonisolated(unsafe) let input = input
        MainActor.assumeIsolated { body(owner, input) }
    }
}

/// Something that `<~`, `~>` and `bind(to:)` can deliver to: a ``BindingSink``, or the
/// `owner.reactive.property` of a `BindingOwner`.
public protocol BindingTargetConvertible<Input> {
    /// The owner type of the sink.
    associatedtype Owner: BindingOwner
    /// The type of values the target takes.
    associatedtype Input
    /// The sink that values are delivered to.
    var bindingSink: BindingSink<Owner, Input> { get }
}
