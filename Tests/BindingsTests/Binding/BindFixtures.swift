import BindingsTestSupport
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
    var events: [RecordedEvent<String, Never>] = []
    var subscriptions = Set<AnyCancellable>()

    init(text: String? = nil) { self.text = text }
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
    func holding(_ token: Canary) -> BindingSink<Base, String?> {
        BindingSink(owner: base) { label, text in
            withExtendedLifetime(token) { label.text = text }
        }
    }

    /// A static member, reached through `BindLabel.reactive`.
    static var kind: String { "label" }
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
    func counting(_ token: Canary) -> BindingSink<Base, Int> {
        BindingSink(owner: base) { owner, _ in
            withExtendedLifetime(token) { _ = owner.received.add(1, ordering: .relaxed) }
        }
    }
}
