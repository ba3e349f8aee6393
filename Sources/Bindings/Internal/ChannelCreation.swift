import Synchronization

/// The locks under which an `@Observed` property's channel is looked up and created
/// (see `Observed.channel(of:storage:projected:)`): a fixed table of word locks, one picked per
/// model, so that observers of different models rarely share one.
///
/// A lock, not an atomic, because the channel's reference lives in the model's storage
/// (a property wrapper's field, which cannot be atomic); every observer reads and writes
/// that field under the model's lock, and sets read it without one (they do not run at
/// the same time as an observation of the same model), as do the tracked reads of the
/// model whose set is being delivered, for the same reason (see
/// `DependencyTracking.Recorder.trustedOwner`).
///
/// Why not `Mutex`: its only API takes a closure, and a closure that captures the
/// storage key path makes the caller materialise the key path object on every call
/// (~30 ns); `lock()` and `unlock()` here keep the key path folded into field accesses.
@usableFromInline
enum ChannelCreation {
    /// How many locks the table has.
    @inlinable static var count: Int { 32 }

    /// The address of the table's words, once made (0 before). Each lock's word: 0 free,
    /// 1 held, 2 held with a waiter asleep in the ``ParkingLot``.
    ///
    /// An atomic word, initialised statically, rather than a `static let` of the table:
    /// a lazily initialised global is reached through `swift_once` at every use, a call
    /// that every tracked read of an `@Observed` property paid. The words are allocated
    /// once and live for the whole process; threads that race to make them agree on the
    /// first one stored.
    @usableFromInline static let tableAddress = Atomic<UInt>(0)

    /// The table's words.
    @inlinable
    static var words: UnsafeMutablePointer<Atomic<UInt8>> {
        let address = tableAddress.load(ordering: .acquiring)
        if _fastPath(address != 0) { return UnsafeMutablePointer(bitPattern: address).unsafelyUnwrapped }
        return makeWords()
    }

    @usableFromInline
    static func makeWords() -> UnsafeMutablePointer<Atomic<UInt8>> {
        let made = UnsafeMutablePointer<Atomic<UInt8>>.allocate(capacity: count)
        for index in 0..<count { (made + index).initialize(to: Atomic(0)) }
        let (won, existing) = tableAddress.compareExchange(
            expected: 0, desired: UInt(bitPattern: made), ordering: .acquiringAndReleasing)
        if won { return made }
        made.deinitialize(count: count)
        made.deallocate()
        return UnsafeMutablePointer(bitPattern: existing).unsafelyUnwrapped
    }

    /// The lock for `instance`'s channels: an index into the table.
    @inlinable
    static func lockIndex(for instance: AnyObject) -> Int {
        lockIndex(forID: ObjectIdentifier(instance))
    }

    /// The lock for the channels of the object that `id` names.
    @inlinable
    static func lockIndex(forID id: ObjectIdentifier) -> Int {
        let address = UInt(bitPattern: id)
        return Int(truncatingIfNeeded: (address >> 4) ^ (address >> 11)) & (count - 1)
    }

    @inlinable @inline(__always)
    static func lock(_ index: Int) {
        if (words + index).pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            return
        }
        lockSlow(index)
    }

    /// Held: spin briefly, then sleep until the holder gives it up.
    @usableFromInline
    static func lockSlow(_ index: Int) {
        let word = words + index
        var spins = 0
        while true {
            let current = word.pointee.load(ordering: .relaxed)
            if current == 0 {
                // Taken as "held with a waiter": whoever is asleep is woken at the unlock.
                if word.pointee.compareExchange(expected: 0, desired: spins < 64 ? 1 : 2, ordering: .acquiring).exchanged {
                    return
                }
                continue
            }
            if spins < 64 {
                spins += 1
                continue
            }
            if current == 1, !word.pointee.compareExchange(expected: 1, desired: 2, ordering: .relaxed).exchanged {
                continue
            }
            ParkingLot.park(on: parkingKey(index)) { word.pointee.load(ordering: .relaxed) == 2 }
        }
    }

    @inlinable
    static func unlock(_ index: Int) {
        if (words + index).pointee.exchange(0, ordering: .releasing) == 2 {
            ParkingLot.unparkAll(on: parkingKey(index))
        }
    }

    /// Runs `body` under `instance`'s lock.
    static func withLock<T>(for instance: AnyObject, _ body: () -> T) -> T {
        withLock(forID: ObjectIdentifier(instance), body)
    }

    /// Runs `body` under the lock of the object that `id` names.
    static func withLock<T>(forID id: ObjectIdentifier, _ body: () -> T) -> T {
        let index = lockIndex(forID: id)
        lock(index)
        defer { unlock(index) }
        return body()
    }

    /// Where the waiters of lock `index` sleep.
    @inlinable
    static func parkingKey(_ index: Int) -> UInt { UInt(index) << 4 }
}
