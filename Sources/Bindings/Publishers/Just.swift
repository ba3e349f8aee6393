import Synchronization

/// A publisher that emits an output to each subscriber just once, and then finishes, as
/// in Combine.
///
/// ```swift
/// let c = Just("hello").sink { print($0) }   // prints "hello"
/// ```
public struct Just<Output>: Publisher {
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Creates a publisher that emits `output` once, then finishes.
    public init(_ output: Output) { self.output = output }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: SingleValueSubscription(value: output, downstream: subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// Delivers one value and `.finished` on the first request; used by `Just`.
final class SingleValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    /// 0 waiting for demand, 1 done (delivered or cancelled).
    private let done = Atomic<UInt8>(0)
    private let value: Downstream.Input
    private let downstream: Downstream

    init(value: Downstream.Input, downstream: Downstream) {
        self.value = value
        self.downstream = downstream
    }

    var description: String { "Just" }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        guard done.exchange(1, ordering: .acquiringAndReleasing) == 0 else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    func cancel() {
        done.store(1, ordering: .releasing)
    }
}
