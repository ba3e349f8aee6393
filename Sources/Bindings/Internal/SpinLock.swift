import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-byte lock for tiny critical sections inside objects that exist once per
/// subscription, where a `pthread_mutex_t` (40 bytes plus an allocation) would dominate
/// the memory per subscription. It spins briefly, then yields the processor.
///
/// Embed it as `let spin = SpinLock()` in a class; never call user code while holding it.
@usableFromInline
struct SpinLock: ~Copyable, Sendable {
    @usableFromInline
    let state = Atomic<UInt8>(0)

    @inlinable
    init() {}

    @inlinable @inline(__always)
    func lock() {
        if state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { return }
        lockSlow()
    }

    @usableFromInline
    func lockSlow() {
        var spins = 0
        while true {
            if state.load(ordering: .relaxed) == 0,
               state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
                return
            }
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }

    @inlinable @inline(__always)
    func unlock() { state.store(0, ordering: .releasing) }

    @inlinable @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
