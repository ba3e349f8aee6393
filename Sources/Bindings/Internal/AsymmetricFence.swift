internal import CBindingsSupport

/// A memory barrier that one thread executes on behalf of all the others, so that the
/// others' side of a handshake can use plain loads and stores.
///
/// Dekker-style handshakes need each side to order its store before its load (a full
/// fence, or an atomic read-modify-write: ~5 ns on the project's machine). When one side
/// runs constantly and the other rarely, the rare side can call ``heavy()`` instead:
/// once it returns, every other thread of the process has executed a full barrier at
/// some point between the call and the return, so a store that thread made before that
/// point is visible, and a load it makes after that point sees what the caller stored
/// before calling (Linux's `membarrier(2)` with `MEMBARRIER_CMD_PRIVATE_EXPEDITED`; it
/// costs about 0.3 µs with one other thread running).
///
/// Where the kernel offers no such call (not Linux, before Linux 4.14, or refused by a
/// seccomp filter), ``isAvailable`` is `false` and callers keep both fences.
///
/// Used by ``Channel`` in its `ordered` mode (an `@Observed` property's channel).
@usableFromInline
enum AsymmetricFence {
    /// Whether ``heavy()`` can be used; registers the process the first time it is read.
    @usableFromInline
    static let isAvailable: Bool = bindings_membarrier_register() == 1

    /// Runs a full memory barrier on every thread of the process. Only when
    /// ``isAvailable``.
    @usableFromInline
    static func heavy() {
        bindings_membarrier()
    }
}
