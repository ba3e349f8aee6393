import Foundation
import Synchronization
@testable import Bindings

/// A subscriber with manual demand that records everything it receives, for the core's
/// tests.
///
/// It requests `initialDemand` when it gets its subscription (nothing for `.none`), and
/// returns `demandPerValue` from each `receive(_:)`. Ask for more with `request(_:)`.
/// `onSubscription`, `onValue` and `onCompletion` run after the event is recorded (to
/// re-enter the publisher).
///
/// `@unchecked Sendable`: every stored `var` is only touched under `lock`; the closures
/// are set before the recorder is shared and run outside the lock.
final class CoreRecorder<Input: Equatable, Failure: Error & Equatable>: Subscriber,
    @unchecked Sendable
{
    enum Event: Equatable {
        case subscription
        case value(Input)
        case completion(Subscribers.Completion<Failure>)

        static var finished: Event { .completion(.finished) }
        static func failure(_ error: Failure) -> Event { .completion(.failure(error)) }
    }

    private let lock = NSLock()
    private var recorded: [Event] = []
    private var storedSubscription: (any Subscription)?
    let initialDemand: Subscribers.Demand
    let demandPerValue: Subscribers.Demand
    var onSubscription: ((any Subscription) -> Void)?
    var onValue: ((Input) -> Void)?
    var onCompletion: ((Subscribers.Completion<Failure>) -> Void)?

    init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    var events: [Event] { lock.withLock { recorded } }

    var values: [Input] {
        events.compactMap { event in
            if case .value(let value) = event { return value }
            return nil
        }
    }

    var subscription: (any Subscription)? { lock.withLock { storedSubscription } }

    func receive(subscription: any Subscription) {
        lock.withLock {
            recorded.append(.subscription)
            storedSubscription = subscription
        }
        onSubscription?(subscription)
        if initialDemand != .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { recorded.append(.value(input)) }
        onValue?(input)
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { recorded.append(.completion(completion)) }
        onCompletion?(completion)
    }

    /// Requests more values through the stored subscription.
    func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    /// Cancels the stored subscription and forgets it.
    func cancel() {
        let subscription = lock.withLock { () -> (any Subscription)? in
            defer { storedSubscription = nil }
            return storedSubscription
        }
        subscription?.cancel()
    }
}

/// The error the core's tests fail with.
enum CoreTestError: Error, Equatable {
    case boom
    case other
}

/// A class to capture in closures, so that a weak reference tells when they are released.
final class CoreTracked: @unchecked Sendable {
    // `@unchecked Sendable`: `value` is only written by the test's single delivering
    // thread at a time (subjects serialise delivery), or never shared.
    var value = 0
    init() {}
}

/// Runs `body` on `threads` new threads that start together, and returns when all are
/// done. Uses real threads (not a pool), so that all of them run at once even on 2 cores.
func coreRunConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = CoreCounter()
    let done = DispatchGroup()
    for index in 0..<threads {
        done.enter()
        let thread = Thread {
            ready.increment()
            while ready.count < threads { sched_yield() }
            body(index)
            done.leave()
        }
        thread.start()
    }
    done.wait()
}

/// Holds a non-`Sendable` value so that test threads can share it. `@unchecked Sendable`:
/// only for values whose API under test is documented thread-safe (e.g. `cancel()`).
struct CoreUncheckedBox<Value>: @unchecked Sendable {
    let value: Value
}

/// A thread-safe counter for tests.
final class CoreCounter: Sendable {
    private let atomic = Atomic<Int>(0)
    init() {}
    var count: Int { atomic.load(ordering: .acquiring) }
    @discardableResult
    func increment() -> Int { atomic.add(1, ordering: .acquiringAndReleasing).newValue }
}
