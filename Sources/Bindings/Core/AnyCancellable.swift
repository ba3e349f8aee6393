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
/// exactly once, on the thread that cancels (or releases the last reference), and is
/// released right after it runs. `AnyCancellable` is `Sendable`, so it may be handed to
/// another thread to cancel there:
///
/// ```swift
/// let c = person.$firstName.sink { print($0) }
/// DispatchQueue.global().async { c.cancel() }
/// ```
///
/// Since a cancel action may run on any thread, the closure or cancellable you give an
/// `AnyCancellable` must be `Sendable`: a closure that touches main-actor state hops
/// there itself (`Task { @MainActor in ... }`). `AnyCancellable` is hashable by identity
/// so that it can be stored in a `Set`.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    // `@unchecked Sendable`: the only state is `target`, one atomic word, which exactly one
    // thread takes (an exchange) and then cancels. What it points at may be cancelled on
    // any thread: the library's subscriptions, observers and subscribers cancel
    // thread-safely (each documents its own state), a closure or cancellable given to a
    // public initializer is `Sendable` (the initializers require it), and the library's
    // own closures (`unchecked(_:)`) only cancel such thread-safe objects.
    /// What to cancel, retained (+1) until `cancel()` or `deinit` takes it, or the
    /// channel of a `sink` takes it over when the model goes. One atomic word, so that
    /// exactly one of any number of racing takers gets it, and so
    /// that an `AnyCancellable` is the smallest object the allocator hands out (its
    /// header and this word: 24 bytes). The library's own subscriptions are targets
    /// themselves; anything else is boxed in one.
    @usableFromInline let target: Atomic<UnsafeMutableRawPointer?>

    /// Creates a cancellable that runs `cancel` once, when cancelled or deinitialised, on
    /// the thread that does so: hence `@Sendable`.
    public convenience init(_ cancel: @escaping @Sendable () -> Void) {
        self.init(target: ClosureCancellation(cancel))
    }

    /// Creates a cancellable that forwards cancellation to `canceller`, on the thread that
    /// cancels: hence `Sendable`.
    public convenience init<C: Cancellable & Sendable>(_ canceller: C) {
        self.init(target: BoxedCancellation(canceller))
    }

    /// A cancellable whose action the library knows to be safe on any thread: it cancels
    /// a thread-safe object of the library's own. (A static function, not an
    /// initializer, so that `AnyCancellable { ... }` never means it.)
    @usableFromInline
    static func unchecked(_ cancel: @escaping () -> Void) -> AnyCancellable {
        AnyCancellable(target: ClosureCancellation(cancel))
    }

    /// A cancellable of one of the library's own cancellables, which cancel
    /// thread-safely (`Subscribers.Sink`, `Subscribers.Assign`, a subject's subscriber).
    @usableFromInline
    static func unchecked<C: Cancellable>(wrapping canceller: C) -> AnyCancellable {
        AnyCancellable(target: BoxedCancellation(canceller))
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
