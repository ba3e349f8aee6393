import Synchronization

/// A one-byte lock for tiny critical sections inside objects that exist once per
/// subscription, where a `pthread_mutex_t` (40 bytes plus an allocation) would dominate
/// the memory per subscription. It spins briefly, then sleeps in the ``ParkingLot``
/// until the holder gives it up (a waiter never spins for long, so one of higher
/// priority cannot keep the holder from running).
///
/// Embed it as `let lock = CompactLock()` in a class; never call user code while holding
/// it. All compact locks share one bucket of the parking lot (a lock has no address of
/// its own to name it by), so a waiter may be woken by another lock's unlock: it checks
/// its own and sleeps again. Sleeping is rare: only after a short spin.
@usableFromInline
struct CompactLock: ~Copyable, Sendable {
    /// 0 free, 1 held, 2 held with a waiter asleep.
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
            let current = state.load(ordering: .relaxed)
            if current == 0 {
                // After sleeping, taken as "held with a waiter", so that others are woken.
                if state.compareExchange(expected: 0, desired: spins < 64 ? 1 : 2, ordering: .acquiring).exchanged {
                    return
                }
                continue
            }
            if spins < 64 {
                spins += 1
                continue
            }
            if current == 1, !state.compareExchange(expected: 1, desired: 2, ordering: .relaxed).exchanged {
                continue
            }
            ParkingLot.park(on: Self.parkingKey) { state.load(ordering: .relaxed) == 2 }
        }
    }

    @inlinable @inline(__always)
    func unlock() {
        if state.exchange(0, ordering: .releasing) == 2 { ParkingLot.unparkAll(on: Self.parkingKey) }
    }

    @inlinable @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// The parking lot key of every compact lock (no object's address is this small).
    @inlinable
    static var parkingKey: UInt { 1 }
}
