#ifndef BINDINGS_BENCHMARKS_MALLOC_COUNTER_H
#define BINDINGS_BENCHMARKS_MALLOC_COUNTER_H

#include <stddef.h>
#include <stdint.h>

/// 1 where allocations are counted (Linux with glibc), 0 elsewhere.
int bench_allocations_supported(void);

/// Starts counting the heap allocations (malloc, calloc, realloc, posix_memalign,
/// aligned_alloc, memalign) made by the calling thread, from zero.
void bench_allocations_start(void);

/// Stops counting and returns how many allocations the calling thread made since
/// `bench_allocations_start()`.
uint64_t bench_allocations_stop(void);

/// How many allocation sizes are recorded after `bench_allocations_start()`.
#define BENCH_RECORDED_SIZES 16

/// The requested size of the `index`th allocation counted since the last start (the
/// first BENCH_RECORDED_SIZES only), or 0.
size_t bench_allocation_size(uint64_t index);

/// Bytes in use by malloc, all arenas, chunk headers included (`mallinfo2().uordblks`).
/// Returns 0 where mallinfo2 does not exist.
uint64_t bench_malloc_bytes_in_use(void);

/// Does nothing, out of the optimizer's sight: a call to it must assume that `pointer`'s
/// memory was read and written, so stores before it cannot be deleted.
void bench_opaque(void *pointer);

/// Reads the opaque value; the optimizer cannot know what it returns.
int64_t bench_opaque_int(int64_t value);

#endif
