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
    /// What to cancel, retained (+1) until `cancel()` or `deinit` takes it, or the
    /// channel of a `sink` takes it over when the model goes. One atomic word, so that
    /// exactly one of any number of racing takers gets it, and so
    /// that an `AnyCancellable` is the smallest object the allocator hands out (its
    /// header and this word: 24 bytes). The library's own subscriptions are targets
    /// themselves; anything else is boxed in one.
    @usableFromInline let target: Atomic<UnsafeMutableRawPointer?>

    /// Creates a cancellable that runs `cancel` once, when cancelled or deinitialised.
    public convenience init(_ cancel: @escaping () -> Void) {
        self.init(target: ClosureCancellation(cancel))
    }

    /// Creates a cancellable that forwards cancellation to `canceller`.
    public convenience init<C: Cancellable>(_ canceller: C) {
        self.init(target: BoxedCancellation(canceller))
    }

    /// Wraps one of the library's own cancellable objects, with no box and no dynamic cast.
    @inlinable
    init(target: consuming CancellationTarget) {
        self.target = Atomic(Unmanaged.passRetained(target).toOpaque())
    }

    deinit {
        // An exchange, not a load: a channel may be taking the reference over right now
        // (its source is gone; see `ChannelObserver.handle`), and only one of the two
        // may have it.
        if let pointer = target.exchange(nil, ordering: .acquiringAndReleasing) {
            Unmanaged<CancellationTarget>.fromOpaque(pointer).takeRetainedValue().handleDeinitialized(self)
        }
    }

    /// Cancels the activity; later calls do nothing.
    public func cancel() {
        guard let pointer = target.exchange(nil, ordering: .acquiringAndReleasing) else { return }
        Unmanaged<CancellationTarget>.fromOpaque(pointer).takeRetainedValue().cancelFromHandle()
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
