import Synchronization

/// The locks under which an `@Observed` property's channel is looked up and created
/// (see `Observed.channel(of:storage:)`): a fixed table of `Mutex`es, one picked per
/// model, so that observers of different models rarely share one.
///
/// A lock, not an atomic, because the channel's reference lives in the model's storage
/// (a property wrapper's field, which cannot be atomic); every observer reads and writes
/// that field under the model's lock, and sets read it without one (they do not run at
/// the same time as an observation of the same model).
@usableFromInline
enum ChannelCreation {
    /// `@unchecked Sendable`: `locks` never changes after `init` and points at
    /// `Mutex`es, which are made to be shared between threads; the table lives for the
    /// whole process.
    @usableFromInline
    final class Table: @unchecked Sendable {
        @usableFromInline static let count = 32
        @usableFromInline let locks: UnsafeMutablePointer<Mutex<Void>>

        init() {
            locks = .allocate(capacity: Self.count)
            for index in 0..<Self.count { (locks + index).initialize(to: Mutex(())) }
        }
    }

    @usableFromInline static let table = Table()

    /// The lock for `instance`'s channels.
    @inlinable
    static func lock(for instance: AnyObject) -> Lock {
        let address = UInt(bitPattern: ObjectIdentifier(instance))
        let index = Int(truncatingIfNeeded: (address >> 4) ^ (address >> 11)) & (Table.count - 1)
        return Lock(mutex: table.locks + index)
    }

    /// One of the table's locks.
    @usableFromInline
    struct Lock {
        @usableFromInline let mutex: UnsafeMutablePointer<Mutex<Void>>

        @inlinable
        init(mutex: UnsafeMutablePointer<Mutex<Void>>) { self.mutex = mutex }

        @inlinable
        func withLock<T>(_ body: () throws -> T) rethrows -> T {
            try mutex.pointee.withLock { _ in try body() }
        }
    }
}
