#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a thread that waits for one of the library's word-sized locks sleeps, once a
/// short spin has not got it (``Channel``'s lock): a fixed table of buckets, each a
/// pthread mutex and condition variable, picked by the lock's object.
///
/// Protocol (the lock's side keeps a "parked" bit in its word):
/// - a waiter sets the bit while the lock is held, then calls ``park(on:while:)``, which
///   sleeps only if `stillBlocked` (evaluated under the bucket's mutex) is true;
/// - the holder's unlock clears the lock and the bit in one atomic exchange, and if the
///   bit was set calls ``unparkAll(on:)``, which takes the bucket's mutex and wakes
///   everyone in the bucket.
/// No wake-up is lost: the unlocking exchange comes either before the waiter's check
/// (which then sees the lock free and does not sleep) or after it, in which case the
/// waiter is already asleep, or about to be with the bucket's mutex held, when the
/// holder takes that mutex to wake it. Woken threads (including those of other locks
/// that share the bucket) simply try again.
///
/// Why not spin with `sched_yield` forever: a spinning waiter of higher priority can
/// keep the holder from running (a livelock under real-time scheduling); a sleeping one
/// cannot. Why not the standard library's `Mutex` as the lock itself: the channel's lock
/// shares its word with the delivery flags, so that a send costs one compare-and-swap to
/// start and one to end (see ``Channel``); this table serves only the slow path.
@usableFromInline
enum ParkingLot {
    /// The buckets. `@unchecked Sendable`: the pointers never change after `init`, and
    /// what they point at (pthread mutexes and condition variables) is made to be used
    /// from any thread; the table lives for the whole process.
    private final class Table: @unchecked Sendable {
        static let count = 64
        let mutexes: UnsafeMutablePointer<pthread_mutex_t>
        let conditions: UnsafeMutablePointer<pthread_cond_t>

        init() {
            mutexes = .allocate(capacity: Self.count)
            conditions = .allocate(capacity: Self.count)
            for index in 0..<Self.count {
                (mutexes + index).initialize(to: pthread_mutex_t())
                pthread_mutex_init(mutexes + index, nil)
                (conditions + index).initialize(to: pthread_cond_t())
                pthread_cond_init(conditions + index, nil)
            }
        }
    }

    private static let table = Table()

    private static func bucket(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: (key >> 4) ^ (key >> 12)) & (Table.count - 1)
    }

    /// Sleeps until ``unparkAll(on:)`` for `key` (or another key of the same bucket),
    /// unless `stillBlocked`, evaluated under the bucket's mutex, is `false`. Callers
    /// loop: a return means "try again", not "the lock is free". `key` names the lock:
    /// its object's address, or any number its waiters and holders agree on.
    @usableFromInline
    static func park(on key: UInt, while stillBlocked: () -> Bool) {
        let index = bucket(key)
        pthread_mutex_lock(table.mutexes + index)
        if stillBlocked() { pthread_cond_wait(table.conditions + index, table.mutexes + index) }
        pthread_mutex_unlock(table.mutexes + index)
    }

    /// Wakes every thread parked in `key`'s bucket.
    @usableFromInline
    static func unparkAll(on key: UInt) {
        let index = bucket(key)
        pthread_mutex_lock(table.mutexes + index)
        pthread_cond_broadcast(table.conditions + index)
        pthread_mutex_unlock(table.mutexes + index)
    }
}
