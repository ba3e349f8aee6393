#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread-local key with a destructor: what holds a thread's `BatchContext` and
/// releases it when the thread exits. The hot paths find the context through
/// `CBindingsThreadLocal` instead, one load where this is a call to `pthread_getspecific`;
/// this key is stored to once per thread, when its context is made.
///
/// The library's key is a `static let` (`BatchContext.key`), made by its first use,
/// once for all threads (the runtime's one-time initialisation of globals).
struct ThreadLocalKey: ~Copyable, Sendable {
    private let key: pthread_key_t

    #if canImport(Darwin)
    typealias Destructor = @convention(c) (UnsafeMutableRawPointer) -> Void
    #else
    typealias Destructor = @convention(c) (UnsafeMutableRawPointer?) -> Void
    #endif

    /// Makes the key; `destructor` is run on a thread's value, if not `nil`, when the
    /// thread exits (see `pthread_key_create`).
    init(destructor: Destructor? = nil) {
        var made = pthread_key_t()
        let status = pthread_key_create(&made, destructor)
        precondition(status == 0, "Bindings: pthread_key_create failed (\(status)): the process ran out of thread-local keys")
        key = made
    }

    /// Deletes the key. The library's key lives for the process; a key that ends (a
    /// test's) must outlive its threads' use of it, and the values stored under it are
    /// not destroyed (`pthread_key_delete`).
    deinit {
        pthread_key_delete(key)
    }

    /// The current thread's value, or `nil` if it stored none.
    var value: UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

    /// Stores `value` as the current thread's.
    func set(_ value: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, value)
    }
}
