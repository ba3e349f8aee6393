import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread-local key, made the first time a value is stored under it: what holds
/// a thread's `BatchContext` and releases it when the thread exits (its destructor). The
/// hot paths find the context through `CBindingsThreadLocal` instead, one load where this
/// is a call to `pthread_getspecific`.
///
/// Why not a `static let key = { pthread_key_create(...) }()`: a lazily initialised global
/// is reached through `swift_once` at every use. This one is an atomic word, initialised
/// statically, that holds the key plus one once made (0 before): a read is a load and
/// `pthread_getspecific`.
///
/// Reading before any value was stored gives `nil` without making the key. Making it
/// races only between first stores: each thread makes a key and offers it with a
/// compare-and-swap; a loser deletes its own and uses the winner's, so every thread
/// agrees on one key.
@usableFromInline
struct ThreadLocalKey: ~Copyable, Sendable {
    /// The key plus one, or 0 while no key was made. Acquire and release: a thread that
    /// reads the key sees it made.
    @usableFromInline let word = Atomic<UInt>(0)
    /// Run on a thread's value when the thread exits (see `pthread_key_create`).
    private let destructor: Destructor?

    #if canImport(Darwin)
    typealias Destructor = @convention(c) (UnsafeMutableRawPointer) -> Void
    #else
    typealias Destructor = @convention(c) (UnsafeMutableRawPointer?) -> Void
    #endif

    init(destructor: Destructor? = nil) {
        self.destructor = destructor
    }

    /// Deletes the key, if one was made. The library's keys are `static let`s, which live
    /// for the process; a key that ends (a test's) must outlive its threads' use of it,
    /// and the values stored under it are not destroyed (`pthread_key_delete`).
    deinit {
        let word = word.load(ordering: .acquiring)
        if word != 0 { pthread_key_delete(pthread_key_t(truncatingIfNeeded: word &- 1)) }
    }

    /// The current thread's value, or `nil` if it stored none (or no thread did yet).
    @inlinable
    var value: UnsafeMutableRawPointer? {
        let word = word.load(ordering: .acquiring)
        guard word != 0 else { return nil }
        return pthread_getspecific(pthread_key_t(truncatingIfNeeded: word &- 1))
    }

    /// Stores `value` as the current thread's, making the key if no thread did yet.
    func set(_ value: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, value)
    }

    /// The key, made on first use.
    private var key: pthread_key_t {
        let word = word.load(ordering: .acquiring)
        if word != 0 { return pthread_key_t(truncatingIfNeeded: word &- 1) }
        var made = pthread_key_t()
        let status = pthread_key_create(&made, destructor)
        precondition(status == 0, "Bindings: pthread_key_create failed (\(status)): the process ran out of thread-local keys")
        let (won, existing) = self.word.compareExchange(
            expected: 0, desired: UInt(made) &+ 1, ordering: .acquiringAndReleasing)
        if won { return made }
        pthread_key_delete(made)
        return pthread_key_t(truncatingIfNeeded: existing &- 1)
    }
}
