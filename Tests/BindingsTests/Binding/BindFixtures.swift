import Foundation
import Synchronization
@testable import Bindings

// Shared fixtures of the binding-layer tests (`Bind*` suites).

/// A plain binding owner that records every set of its properties, in order.
final class BindLabel: BindingOwner {
    var text: String? { didSet { textSets.append(text) } }
    var textSets: [String?] = []
    var name = "" { didSet { nameSets.append(name) } }
    var nameSets: [String] = []
    var flashes = 0
    var events: [BindEvent] = []
    var subscriptions = Set<AnyCancellable>()

    init(text: String? = nil) { self.text = text }
}

/// What a sink with a completion handler saw.
enum BindEvent: Equatable {
    case value(String)
    case finished
}

/// A model that is also a binding owner: its `reactive` properties are publishers and
/// targets at once.
final class BindViewModel: KeyValueObservable, BindingOwner {
    @Observed var name = "n"
    @Observed var count = 0
    var plain = 0 { didSet { plainSets.append(plain) } }
    var plainSets: [Int] = []
    var shoutedName: String { name.uppercased() }
    var subscriptions = Set<AnyCancellable>()

    init(name: String = "n") { self.name = name }
}

/// An observable model that is not an owner.
final class BindPerson: KeyValueObservable {
    @Observed var firstName = "Ada"
    @Observed var lastName = "Lovelace"
    var fullName: String { "\(firstName) \(lastName)" }
}

/// Something only a binding's closure holds: once the binding is released, a weak
/// reference to it reads `nil`.
final class BindToken: Sendable {
    init() {}
}

extension Reactive where Base: BindLabel {
    /// A custom sink, as in the spec: the name in capitals.
    var shouting: BindingSink<Base, String> { BindingSink(owner: base) { $0.text = $1.uppercased() } }

    /// A sink for `Void` values.
    var flash: BindingSink<Base, Void> { BindingSink(owner: base) { $0.flashes += 1 } }

    /// A sink for a publisher that never emits: it records the completion.
    var finished: BindingSink<Base, Never> { BindingSink(owner: base) { $0.events.append(.finished) } }

    /// A sink that records values and the completion.
    var log: BindingSink<Base, String> {
        BindingSink(owner: base, receiveValue: { $0.events.append(.value($1)) },
                    receiveCompletion: { $0.events.append(.finished) })
    }

    /// A sink whose closure also holds `token`, so that a test sees when the binding is
    /// released.
    func holding(_ token: BindToken) -> BindingSink<Base, String?> {
        BindingSink(owner: base) { label, text in
            withExtendedLifetime(token) { label.text = text }
        }
    }

    /// A static member, reached through `BindLabel.reactive`.
    static var kind: String { "label" }
}

/// A list appended to from several threads.
///
/// `@unchecked Sendable`: `storage` is only touched with `lock` held.
final class BindLog<Item>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Item] = []

    init() {}

    var items: [Item] { lock.withLock { storage } }

    func append(_ item: Item) { lock.withLock { storage.append(item) } }
}

/// An owner that values reach from other threads: it counts them atomically.
///
/// `@unchecked Sendable`: `received` is atomic; `subscriptions` is only touched by the
/// thread that creates, binds and releases the owner.
final class BindCountingOwner: BindingOwner, @unchecked Sendable {
    let received = Atomic<Int>(0)
    var subscriptions = Set<AnyCancellable>()
    init() {}
}

extension Reactive where Base: BindCountingOwner {
    /// Counts each value; the closure holds `token`.
    func counting(_ token: BindToken) -> BindingSink<Base, Int> {
        BindingSink(owner: base) { owner, _ in
            withExtendedLifetime(token) { _ = owner.received.add(1, ordering: .relaxed) }
        }
    }
}

/// Holds a value that tests hand to other threads. `@unchecked Sendable`: only for values
/// whose API under test is documented thread-safe (subjects, `cancel()`).
struct BindUnchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Runs `body` on `threads` new threads that start together, and returns when all are
/// done. Real threads (not a pool), so that all of them run at once even on 2 cores.
func bindRunConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = BindCounter()
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

/// A thread-safe counter.
final class BindCounter: Sendable {
    private let atomic = Atomic<Int>(0)
    init() {}
    var count: Int { atomic.load(ordering: .acquiring) }
    @discardableResult
    func increment() -> Int { atomic.add(1, ordering: .acquiringAndReleasing).newValue }
}

/// Runs `body` on a new thread and waits for it.
func bindOnAnotherThread(_ body: @escaping @Sendable () -> Void) {
    bindRunConcurrently(threads: 1) { _ in body() }
}

/// Waits until the main queue has run everything enqueued before this call.
@MainActor
func bindDrainMainQueue() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { done.resume() }
    }
}
