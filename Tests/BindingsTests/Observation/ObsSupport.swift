import Foundation
import Synchronization
@testable import Bindings

// Models and recorders shared by the observation tests (the `Obs…` suites).

final class ObsCountry: KeyValueObservable {
    @Observed var name: String
    init(_ name: String = "UK") { self.name = name }
}

final class ObsAddress: KeyValueObservable {
    @Observed var city: String
    @Observed var country: ObsCountry
    init(_ city: String = "London", country: ObsCountry = ObsCountry()) {
        self.city = city
        self.country = country
    }
}

enum ObsMood: Equatable, Sendable {
    case calm
    case busy(Int)
    case away(String)
}

final class ObsPerson: KeyValueObservable {
    @Observed var firstName = "Ada"
    @Observed var lastName = "Lovelace"
    @Observed var address = ObsAddress()
    @Observed var tags: [String] = []
    @Observed var nickname: String? = nil
    @Observed var useNickname = false
    @Observed var name = "Ada"
    @Observed var mood = ObsMood.calm
    @Observed var count = 0
    /// Not observable: plain storage.
    var plain = 0

    var fullName: String { "\(firstName) \(lastName)" }
    var display: String { useNickname ? (nickname ?? "") : name }
    var loudNickname: String? { nickname?.uppercased() }
    var plainDescription: String { "plain \(plain)" }
}

/// A model with an optional link to an observed object, for `\.home?.city`.
final class ObsTenant: KeyValueObservable {
    @Observed var home: ObsAddress?
    init(home: ObsAddress? = nil) { self.home = home }
}

/// A thread-safe list, for values recorded from several threads or from `@Sendable`
/// closures.
final class ObsLog<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var elements: [Element] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }
    var last: Element? { storage.withLock { $0.last } }
    /// Empties the list, returning what it held (dropped by the caller, outside the lock).
    func takeAll() -> [Element] {
        storage.withLock { list in
            let taken = list
            list = []
            return taken
        }
    }
}

/// A thread-safe counter or flag.
final class ObsCounter: Sendable {
    private let storage = Atomic<Int>(0)
    func increment() { storage.add(1, ordering: .relaxed) }
    func set(_ value: Int) { storage.store(value, ordering: .releasing) }
    var value: Int { storage.load(ordering: .acquiring) }
}

/// A subscriber that records what it receives, with manual demand.
///
/// `@unchecked Sendable`: `recorded` and `subscription` are only touched with `lock` held.
final class ObsRecorder<Input: Equatable & Sendable>: Subscriber, @unchecked Sendable {
    typealias Failure = Never

    enum Event: Equatable, Sendable {
        case value(Input)
        case finished
    }

    private let lock = NSLock()
    private var recorded: [Event] = []
    private var subscription: (any Subscription)?
    private let initialDemand: Subscribers.Demand

    init(initialDemand: Subscribers.Demand = .unlimited) {
        self.initialDemand = initialDemand
    }

    var events: [Event] { lock.withLock { recorded } }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { subscription }?.request(demand)
    }

    func cancel() {
        lock.withLock { subscription }?.cancel()
    }

    func receive(subscription: any Subscription) {
        lock.withLock { self.subscription = subscription }
        if initialDemand != .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { recorded.append(.value(input)) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        let subscription: (any Subscription)? = lock.withLock {
            recorded.append(.finished)
            defer { self.subscription = nil }
            return self.subscription
        }
        withExtendedLifetime(subscription) {}   // released outside the lock
    }
}

/// An object whose deinit can be seen through a weak reference.
final class ObsSentinel: Sendable {}

extension KeyValueObservedChange {
    /// A `.setting` change (not prior).
    static func set(new: Value?, old: Value?) -> Self {
        KeyValueObservedChange(kind: .setting, newValue: new, oldValue: old)
    }

    /// A prior notice.
    static func prior(old: Value?) -> Self {
        KeyValueObservedChange(kind: .setting, newValue: nil, oldValue: old, isPrior: true)
    }
}

// The synthesized `_property` storage is private to this file: these expose it to the
// other test files, to look at the channels.

extension Observed {
    /// The number of observers registered with the property's channel (0 without one).
    var observerCount: Int { channel?.takeUnretainedValue().observerCount ?? 0 }
    /// Whether the property has a channel (it was observed at some point).
    var hasChannel: Bool { channel != nil }
    /// Whether some observer makes a set keep the old value (a copy).
    var wantsOld: Bool { channel?.takeUnretainedValue().wantsOld ?? false }
    /// Whether some observer makes a set send a prior notice.
    var wantsPrior: Bool { channel?.takeUnretainedValue().wantsPrior ?? false }
    /// Counts the events sent through the property's channel from now on (changes and
    /// prior notices), or `nil` when the property has no channel (was never observed).
    func countEvents() -> ObsEventCounter<Value>? {
        guard let channel = channel?.takeUnretainedValue() else { return nil }
        let counter = ObsEventCounter<Value>()
        channel.add(counter)
        return counter
    }
}

/// A raw channel observer that counts what reaches it: it asks for no old values and no
/// prior notices, so attaching it changes nothing of what a set sends.
final class ObsEventCounter<Value>: ChannelObserver<PropertyEvent<Value>> {
    private(set) var count = 0
    override func receive(_ event: PropertyEvent<Value>) { count += 1 }
}

extension ObsPerson {
    var firstNameStorage: Observed<String> { _firstName }
    var lastNameStorage: Observed<String> { _lastName }
    var addressStorage: Observed<ObsAddress> { _address }
    var tagsStorage: Observed<[String]> { _tags }
    var countStorage: Observed<Int> { _count }
}

extension ObsAddress {
    var cityStorage: Observed<String> { _city }
    var countryStorage: Observed<ObsCountry> { _country }
}

extension ObsCountry {
    var nameStorage: Observed<String> { _name }
}

/// Keeps cancellables made on several threads.
final class ObsCancellableBag: @unchecked Sendable {
    // `@unchecked Sendable`: `items` is only touched with `lock` held.
    private let lock = NSLock()
    private var items: [AnyCancellable] = []

    func insert(_ cancellable: AnyCancellable) { lock.withLock { items.append(cancellable) } }
    func removeAll() -> [AnyCancellable] {
        lock.withLock {
            let taken = items
            items = []
            return taken
        }
    }
}
