#ifndef C_BINDINGS_SUPPORT_H
#define C_BINDINGS_SUPPORT_H

/// The process-wide memory barrier behind `AsymmetricFence` (Sources/Bindings/Internal):
/// Linux's membarrier(2), which C code can call but Swift cannot (`syscall` is variadic).

/// Registers the process for `bindings_membarrier`; returns 1 if it can be used (Linux
/// 4.14 or later, and not refused by a seccomp filter), 0 otherwise. Call it once.
int bindings_membarrier_register(void);

/// Makes every other running thread of the process execute a full memory barrier before
/// this returns. Only after `bindings_membarrier_register` returned 1. Returns 0 on
/// success, -1 if the kernel refused (it may, when out of memory): then call it again.
int bindings_membarrier(void);

/// Keeps the compiler from moving memory accesses across this point; emits no
/// instruction. The fast side of an asymmetric handshake needs it between its store and
/// its load, which the processor may reorder (`bindings_membarrier` answers for that)
/// but the compiler must not.
static inline void bindings_compiler_barrier(void) {
    __asm__ __volatile__("" ::: "memory");
}

#endif
