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
///
/// Which of the two a sink does is decided once, when it is made, from what the compiler
/// knows there: the caller's isolation, and whether the owner's conformance is known to be
/// nonisolated. A concrete owner type whose conformance is nonisolated satisfies
/// `SendableMetatype` with it, and gets the initializers constrained on it; an isolated
/// conformance cannot satisfy that requirement (SE-0470), so the compiler picks the
/// unconstrained ones, which treat the conformance as isolated to the main actor when the
/// sink is made on the main thread (the only place such a conformance can be used).
public struct BindingSink<Owner: BindingOwner, Input>: BindingTargetConvertible {
    /// The owner, or `nil` once it is gone.
    public var owner: Owner? { reference.object }
    @usableFromInline let reference: WeakReference<Owner>
    @usableFromInline let receiveValue: (Owner, Input) -> Void
    @usableFromInline let receiveCompletion: ((Owner) -> Void)?
    @usableFromInline let delivery: BindingDelivery

    /// A sink that runs `receiveValue` with the owner and each value.
    ///
    /// This initializer serves owners whose conformance to ``BindingOwner`` may be
    /// isolated (a main-actor owner, or a generic owner type): made on the main actor or on
    /// the main thread, the sink only ever runs `receiveValue` on the main thread.
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation,
        receiveValue: @escaping (Owner, Input) -> Void
    ) {
        self.init(
            owner: owner, delivery: .forOwnerOfUnknownIsolation(isolation), receiveValue: CallerIsolation.onCallerActor(isolation, receiveValue),
            receiveCompletion: nil)
    }

    /// A sink that also runs `receiveCompletion` when the bound publisher finishes.
    ///
    /// This initializer serves owners whose conformance to ``BindingOwner`` may be
    /// isolated: made on the main actor or on the main thread, the sink only ever runs its
    /// closures on the main thread.
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation,
        receiveValue: @escaping (Owner, Input) -> Void, receiveCompletion: @escaping (Owner) -> Void
    ) {
        let (receiveValue, receiveCompletion) = CallerIsolation.onCallerActor(isolation, receiveValue, receiveCompletion)
        self.init(
            owner: owner, delivery: .forOwnerOfUnknownIsolation(isolation), receiveValue: receiveValue,
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

    @usableFromInline
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

extension BindingSink where Owner: SendableMetatype {
    /// A sink that runs `receiveValue` with the owner and each value.
    ///
    /// ```swift
    /// BindingSink(owner: label) { label, text in label.text = text }
    /// ```
    ///
    /// This initializer serves owners whose conformance to ``BindingOwner`` is nonisolated
    /// (the compiler only picks it for those). `isolation` is the caller's: made on the
    /// main actor, the closure is main-actor isolated, so the sink only ever runs it on the
    /// main thread; made elsewhere, it runs on the thread that sends each value.
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation,
        receiveValue: @escaping (Owner, Input) -> Void
    ) {
        self.init(
            owner: owner, delivery: .forNonisolatedOwner(isolation), receiveValue: CallerIsolation.onCallerActor(isolation, receiveValue),
            receiveCompletion: nil)
    }

    /// A sink that also runs `receiveCompletion` when the bound publisher finishes.
    ///
    /// This initializer serves owners whose conformance to ``BindingOwner`` is
    /// nonisolated. `isolation` is the caller's: made on the main actor, the closures only
    /// run on the main thread; made elsewhere, on the thread that sends each value.
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation,
        receiveValue: @escaping (Owner, Input) -> Void, receiveCompletion: @escaping (Owner) -> Void
    ) {
        let (receiveValue, receiveCompletion) = CallerIsolation.onCallerActor(isolation, receiveValue, receiveCompletion)
        self.init(
            owner: owner, delivery: .forNonisolatedOwner(isolation), receiveValue: receiveValue,
            receiveCompletion: receiveCompletion)
    }
}

extension BindingSink where Input == Void {
    /// A sink for a publisher of `Void`: runs `receiveValue` with the owner each time.
    ///
    /// ```swift
    /// extension Reactive where Base: Button { var flash: BindingSink<Base, Void> { BindingSink(owner: base) { $0.flash() } } }
    /// ```
    ///
    /// This initializer serves owners whose conformance to ``BindingOwner`` may be
    /// isolated: made on the main actor or on the main thread, the sink only ever runs
    /// `receiveValue` on the main thread.
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation, receiveValue: @escaping (Owner) -> Void
    ) {
        self.init(
            owner: owner, delivery: .forOwnerOfUnknownIsolation(isolation),
            receiveValue: CallerIsolation.onCallerActor(isolation) { owner, _ in receiveValue(owner) },
            receiveCompletion: nil)
    }
}

extension BindingSink where Input == Void, Owner: SendableMetatype {
    /// A sink for a publisher of `Void`: runs `receiveValue` with the owner each time.
    ///
    /// This initializer serves owners whose conformance to ``BindingOwner`` is
    /// nonisolated: made on the main actor, the closure only runs on the main thread;
    /// made elsewhere, on the thread that sends each value.
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation, receiveValue: @escaping (Owner) -> Void
    ) {
        self.init(
            owner: owner, delivery: .forNonisolatedOwner(isolation),
            receiveValue: CallerIsolation.onCallerActor(isolation) { owner, _ in receiveValue(owner) },
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
    ///
    /// This initializer serves owners whose conformance to ``BindingOwner`` may be
    /// isolated: made on the main actor or on the main thread, the sink only ever runs
    /// `receiveCompletion` on the main thread.
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation, receiveCompletion: @escaping (Owner) -> Void
    ) {
        self.init(
            owner: owner, delivery: .forOwnerOfUnknownIsolation(isolation), receiveValue: { _, _ in },
            receiveCompletion: CallerIsolation.onCallerActor(isolation, { (_: Owner, _: Input) in }, receiveCompletion).1)
    }
}

extension BindingSink where Input == Never, Owner: SendableMetatype {
    /// A sink for a publisher that never emits a value: runs `receiveCompletion` with the
    /// owner when it finishes.
    ///
    /// This initializer serves owners whose conformance to ``BindingOwner`` is
    /// nonisolated: made on the main actor, the closure only runs on the main thread;
    /// made elsewhere, on the thread that sends the completion.
    public init(
        owner: Owner, isolation: isolated (any Actor)? = #isolation, receiveCompletion: @escaping (Owner) -> Void
    ) {
        self.init(
            owner: owner, delivery: .forNonisolatedOwner(isolation), receiveValue: { _, _ in },
            receiveCompletion: CallerIsolation.onCallerActor(isolation, { (_: Owner, _: Input) in }, receiveCompletion).1)
    }
}

/// How a binding reaches its owner's thread: decided once, when the sink is made, from
/// what the compiler knows at that point (never from a dynamic cast, whose check of a
/// conformance's isolation older runtimes do not make).
@usableFromInline
enum BindingDelivery: Sendable {
    /// On the thread that sends each value, synchronously.
    case sendingThread
    /// Only on the main thread: synchronously when the value is sent there, otherwise
    /// through the main queue, in order.
    case mainActor

    /// For an owner whose `BindingOwner` conformance is known, at compile time, to be
    /// nonisolated (`Owner: SendableMetatype`): only the closure's isolation matters.
    /// Code made on the main actor runs there; code made on another actor runs where
    /// values are sent, as a Combine `sink` does: there is no synchronous way onto an
    /// arbitrary actor.
    @usableFromInline
    static func forNonisolatedOwner(_ isolation: (any Actor)?) -> BindingDelivery {
        isolation === MainActor.shared ? .mainActor : .sendingThread
    }

    /// For an owner whose `BindingOwner` conformance may be isolated: a concrete owner
    /// type whose conformance the compiler found isolated (it cannot satisfy
    /// `SendableMetatype`), or a generic owner type. A conformance isolated to the main
    /// actor can only be used on the main actor (SE-0470), and the sink is made where it
    /// is used, synchronously: made off the main thread, the conformance is not the main
    /// actor's; made on it, it may be, and the sink runs on the main thread only.
    @usableFromInline
    static func forOwnerOfUnknownIsolation(_ isolation: (any Actor)?) -> BindingDelivery {
        isolation === MainActor.shared || MainThread.isCurrent ? .mainActor : .sendingThread
    }
}

/// Calls a main-actor closure from the binding machinery, which only does so on the main
/// thread (see `BindingSubscriber`).
private struct MainActorBody<Owner, Input> {
    let body: @MainActor (Owner, Input) -> Void
    init(_ body: @escaping @MainActor (Owner, Input) -> Void) { self.body = body }
    func call(_ owner: Owner, _ input: Input) {
        // `nonisolated(unsafe)`: a `.mainActor` sink's `BindingSubscriber` calls this
        // only on the main thread (and `assumeIsolated` traps elsewhere), so `owner` and
        // `input` stay on the thread they are on.
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
