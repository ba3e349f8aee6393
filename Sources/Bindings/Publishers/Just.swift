import Synchronization

/// A publisher that emits an output to each subscriber just once, and then finishes, as
/// in Combine.
///
/// ```swift
/// let c = Just("hello").sink { print($0) }   // prints "hello"
/// ```
public struct Just<Output>: Publisher {
    /// `Just` cannot fail.
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Creates a publisher that emits `output` once, then finishes.
    public init(_ output: Output) { self.output = output }

    /// Gives `subscriber` a subscription that delivers the output and `.finished` on its
    /// first request.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: SingleValueSubscription(value: output, downstream: subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// Delivers one value and `.finished` on the first request; used by `Just`, and by
/// `Optional.Publisher` and `Result.Publisher` when they have a value.
///
/// It lets go of the subscriber (and the value) as soon as it has delivered or been
/// cancelled, so that a subscriber that keeps its subscription forms no cycle.
final class SingleValueSubscription<Downstream: Subscriber>: Subscription, CombineReflectable {
    /// `waiting` until the first request or cancel; whichever thread moves it away from
    /// `waiting` alone owns `value` and `downstream` from then on (`reflecting` lends
    /// them to `customMirror` for a moment).
    private let state = Atomic<UInt8>(SingleValueState.waiting)

    // Neither is an optional of a generic type: `Just` is subscribed to from generic code
    // (`flatMap`'s inners, each value), where each use of one looked its metadata up in
    // the runtime's cache, at the creation, the delivery and the deinit. The value is
    // `Any` (put in with its type, taken out with a cast that cannot fail).
    private var value: Any?
    private var downstream: SubscriberBox<Downstream>?
    /// The name Combine gives this subscription: "Just", "Optional" or "Once".
    private let name: StaticString

    init(value: Downstream.Input, downstream: Downstream, name: StaticString = "Just") {
        self.value = value
        self.downstream = SubscriberBox(downstream)
        self.name = name
    }

    var description: String { name.description }

    /// The value, as Combine shows it, while it has not been delivered (this subscription
    /// lets go of it once delivered or cancelled, where Combine's keeps it).
    var customMirror: Mirror {
        // Borrow `value` as `request` would take it, so that no other thread takes it
        // meanwhile: a request waits, a cancel leaves the release to us.
        guard state.compareExchange(
            expected: SingleValueState.waiting, desired: SingleValueState.reflecting, ordering: .acquiringAndReleasing
        ).exchanged else { return Mirror(self, children: EmptyCollection<Mirror.Child>()) }
        let children: [Any] = value.map { [$0] } ?? []
        if !state.compareExchange(
            expected: SingleValueState.reflecting, desired: SingleValueState.waiting, ordering: .acquiringAndReleasing
        ).exchanged {
            // Cancelled while we held them.
            value = nil
            downstream = nil
        }
        return Mirror(self, unlabeledChildren: children)
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        while true {
            let (exchanged, found) = state.compareExchange(
                expected: SingleValueState.waiting, desired: SingleValueState.delivering,
                ordering: .acquiringAndReleasing)
            if exchanged { break }
            // Delivered or cancelled already; or lent to `customMirror`, which gives it
            // back at once.
            guard found == SingleValueState.reflecting else { return }
        }
        // Taken by hand: `Optional.take()` is generic, and here it looked up the metadata
        // of the optional's type.
        let value = self.value
        let box = self.downstream
        self.value = nil
        self.downstream = nil
        guard let downstream = box?.subscriber, let value else { return }
        _ = downstream.receive(value as! Downstream.Input)
        // A cancel during `receive` moved the state to `done`: send nothing more.
        guard state.compareExchange(
            expected: SingleValueState.delivering, desired: SingleValueState.done, ordering: .acquiringAndReleasing
        ).exchanged else { return }
        downstream.receive(completion: .finished)
    }

    func cancel() {
        // From `reflecting`, `customMirror` releases them when it finds `done`.
        guard state.exchange(SingleValueState.done, ordering: .acquiringAndReleasing) == SingleValueState.waiting else { return }
        // Ours now: release the subscriber and the value.
        value = nil
        downstream = nil
    }
}

/// The states of a ``SingleValueSubscription``.
private enum SingleValueState {
    static let waiting: UInt8 = 0
    static let delivering: UInt8 = 1
    static let done: UInt8 = 2
    /// Lent to `customMirror`, which puts back `waiting` (or finds `done`) right after.
    static let reflecting: UInt8 = 3
}
