import Synchronization

/// A type-erasing cancellable object that cancels on deinit, as in Combine.
///
/// Keep the `AnyCancellable` returned by `sink`, `assign`, `<~` and friends as long as
/// the subscription should live; releasing it cancels the subscription.
///
/// ```swift
/// var subscriptions = Set<AnyCancellable>()
/// person.$firstName.sink { print($0) }.store(in: &subscriptions)
/// subscriptions.removeAll()   // cancels
/// ```
///
/// `cancel()` is idempotent and may be called from any thread; the cancel action runs
/// exactly once and is released right after it runs. `AnyCancellable` is hashable by
/// identity so that it can be stored in a `Set`.
public final class AnyCancellable: Cancellable, Hashable {
    /// 0 while live, 1 once cancelled.
    private let state = Atomic<UInt8>(0)
    /// Only the thread that flips `state` from 0 to 1 reads or clears this after `init`
    /// (and `deinit`, which runs alone), so it needs no lock of its own.
    private var action: Action?

    /// Two words at most, so that an `AnyCancellable` stays a 48-byte allocation.
    private enum Action {
        case closure(() -> Void)
        case object(any AnyObject & Cancellable)
    }

    /// Creates a cancellable that runs `cancel` once, when cancelled or deinitialised.
    public init(_ cancel: @escaping () -> Void) {
        action = .closure(cancel)
    }

    /// Creates a cancellable that forwards cancellation to `canceller`.
    public init<C: Cancellable>(_ canceller: C) {
        if type(of: canceller) is AnyClass,
           let object = canceller as AnyObject as? any AnyObject & Cancellable {
            action = .object(object)
        } else {
            action = .closure { canceller.cancel() }
        }
    }

    /// Wraps one of the library's own cancellable objects without the dynamic casts of
    /// ``init(_:)-(C)`` (a measured ~200 ns per subscription).
    @usableFromInline
    init(object: any AnyObject & Cancellable) {
        action = .object(object)
    }

    deinit {
        if state.load(ordering: .acquiring) == 0 { Self.run(action) }
    }

    /// Cancels the activity; later calls do nothing.
    public func cancel() {
        guard state.exchange(1, ordering: .acquiringAndReleasing) == 0 else { return }
        let action = self.action
        self.action = nil
        Self.run(action)
    }

    private static func run(_ action: Action?) {
        switch action {
        case .closure(let body)?: body()
        case .object(let object)?: object.cancel()
        case nil: break
        }
    }

    /// Two cancellables are equal when they are the same instance.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension AnyCancellable {
    /// Stores this cancellable in the given collection.
    @inlinable
    public func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this cancellable in the given set.
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }
}
