// Not `internal import`: `compilerBarrier()` is inlined into the setters of user models.
import CBindingsSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A memory barrier that one thread executes on behalf of all the others, so that the
/// others' side of a handshake can use plain loads and stores.
///
/// Dekker-style handshakes need each side to order its store before its load (a full
/// fence, or an atomic read-modify-write: ~5 ns on the project's machine). When one side
/// runs constantly and the other rarely, the rare side can call ``heavy()`` instead:
/// once it returns, every other thread of the process has executed a full barrier at
/// some point between the call and the return, so a store that thread made before that
/// point is visible, and a load it makes after that point sees what the caller stored
/// before calling (Linux's `membarrier(2)` with `MEMBARRIER_CMD_PRIVATE_EXPEDITED`: from
/// about 0.3 µs to 10 µs on the project's machine, depending on what the other threads
/// are doing). The fast side still needs ``compilerBarrier()`` between its store and
/// its load, which costs no instruction.
///
/// Where the kernel offers no such call (not Linux, before Linux 4.14, or refused by a
/// seccomp filter), ``isAvailable`` is `false` and callers keep both fences.
///
/// Used by ``Channel`` in its `ordered` mode (an `@Observed` property's channel).
@usableFromInline
enum AsymmetricFence {
    /// Whether ``heavy()`` can be used; registers the process the first time it is read
    /// (which took 8 to 12 ms on the project's machine, once per process).
    @usableFromInline
    static let isAvailable: Bool = bindings_membarrier_register() == 1

    /// Runs a full memory barrier on every thread of the process. Only when
    /// ``isAvailable``. The kernel refuses only when it cannot allocate (a full system):
    /// then this waits and asks again, since the handshake is not safe without it.
    @usableFromInline
    static func heavy() {
        var attempts = 0
        while bindings_membarrier() != 0 {
            attempts += 1
            if attempts < 64 { sched_yield() } else { usleep(1000) }
        }
    }

    /// Keeps the compiler from moving loads and stores across this point (no
    /// instruction): the fast side's store must stay before its load.
    @inlinable @inline(__always)
    static func compilerBarrier() {
        bindings_compiler_barrier()
    }
}
