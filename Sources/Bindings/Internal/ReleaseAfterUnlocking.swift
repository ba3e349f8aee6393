/// Keeps `object` alive until this call, then lets it go: for a reference taken out of
/// a field under a lock, to be released once the lock is given up (its `deinit` may
/// re-enter the library).
///
/// Not `withExtendedLifetime(object) {}` with the field's own type: in generic code that
/// is not specialized (a derived observation's `removeInterest`, called when a
/// subscription is cancelled), that call looks up the metadata of `Optional<Channel<…>>`
/// each time (measured: a computed key path's subscribe + cancel, 715 -> 627 ns). Here the
/// type is always `AnyObject?`.
@inlinable @inline(__always)
func releaseAfterUnlocking(_ object: AnyObject?) {
    withExtendedLifetime(object) {}
}
