import Synchronization

/// A Combine subscription to an observable value (`$property`, `publisher(for:)`,
/// ``ObservableValue``): it publishes the new value of each change, the old value of
/// each prior notice when `.prior` was asked for, and `.finished` when the observed
/// object is gone.
///
/// Demand: values that arrive while the subscriber has no demand are dropped, as with
/// Combine's KVO publisher. The subscription registers with the channel on the first
/// request, so `.initial` delivers the current value inside that request.
final class PropertySubscription<Downstream: Subscriber>: PropertyObserver<Downstream.Input>, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Failure == Never {
    // `@unchecked Sendable`: `demand` is guarded by `spin`; `unlimited` is atomic;
    // `downstream` is immutable and only called by the channel's delivering thread.

    typealias Value = Downstream.Input

    private let downstream: Downstream
    private let unlimited = Atomic<Bool>(false)
    private let spin = SpinLock()
    private var demand = Subscribers.Demand.none

    init(channel: PropertyChannel<Value>, options: KeyValueObservingOptions, downstream: Downstream) {
        self.downstream = downstream
        super.init(channel: channel, options: options)
    }

    var description: String { "KeyValueObservingPublisher" }

    override func receive(_ event: PropertyEvent<Value>) {
        let value: Value
        if event.isPrior {
            guard options.contains(.prior), let old = event.old else { return }
            value = old
        } else {
            guard let new = event.new else { return }
            value = new
        }
        if unlimited.load(ordering: .relaxed) {
            _ = downstream.receive(value)
            return
        }
        spin.lock()
        guard demand > .none else {
            spin.unlock()
            return
        }
        demand -= 1
        spin.unlock()
        let more = downstream.receive(value)
        if more > .none { add(more) }
    }

    private func add(_ more: Subscribers.Demand) {
        spin.lock()
        demand += more
        if demand == .unlimited { unlimited.store(true, ordering: .relaxed) }
        spin.unlock()
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        add(demand)
        register()
    }

    func cancel() { unregister() }

    override func sourceEnded() {
        downstream.receive(completion: .finished)
    }
}
