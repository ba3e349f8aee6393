// Allocation counting by interposition: the executable defines malloc and friends, and
// the dynamic linker binds every library's calls (the Swift runtime's swift_slowAlloc
// among them) to these definitions, which count and forward to glibc's own entry points
// (__libc_malloc and so on). Forwarding to __libc_* rather than dlsym(RTLD_NEXT, ...)
// avoids dlsym's own allocations while it is being resolved.
//
// The count is per thread and only taken between start and stop, so other threads and
// the timing runs pay one thread-local load and a branch per allocation, nothing more.

#include "MallocCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <errno.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static __thread int counting;
static __thread uint64_t allocations;
/// The requested sizes of the first allocations counted, to tell what they are.
static __thread size_t sizes[BENCH_RECORDED_SIZES];

static inline void count_size(size_t size) {
    if (__builtin_expect(counting, 0)) {
        if (allocations < BENCH_RECORDED_SIZES) sizes[allocations] = size;
        allocations += 1;
    }
}

void *malloc(size_t size) {
    count_size(size);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_size(count * size);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_size(size);
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count_size(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_size(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    count_size(size);
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

int bench_allocations_supported(void) { return 1; }

void bench_allocations_start(void) {
    allocations = 0;
    counting = 1;
}

uint64_t bench_allocations_stop(void) {
    counting = 0;
    return allocations;
}

size_t bench_allocation_size(uint64_t index) {
    return index < BENCH_RECORDED_SIZES && index < allocations ? sizes[index] : 0;
}

uint64_t bench_malloc_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)info.uordblks;
}

#else

int bench_allocations_supported(void) { return 0; }
void bench_allocations_start(void) {}
uint64_t bench_allocations_stop(void) { return 0; }
size_t bench_allocation_size(uint64_t index) { (void)index; return 0; }
uint64_t bench_malloc_bytes_in_use(void) { return 0; }

#endif

void bench_opaque(void *pointer) { (void)pointer; }

int64_t bench_opaque_int(int64_t value) { return value; }
