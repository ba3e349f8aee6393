#ifndef BINDINGS_THREAD_LOCAL_H
#define BINDINGS_THREAD_LOCAL_H

// The state of one thread that Bindings' hot paths read: in C11 thread-local storage,
// which Swift cannot declare. Reading it is one load relative to the thread pointer
// (where a POSIX key took a call to `pthread_getspecific`, and a global counter saying
// "some thread is tracking" an atomic increment and decrement per tracking session).
//
// Every field is read and written only by its own thread. The functions below are
// `static inline`: Swift imports them, and the optimizer inlines them into its callers
// (an `@Observed` getter among them).

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    /// The thread's `BatchContext`, unretained (its POSIX key holds it, and releases it
    /// when the thread exits, after clearing this field). `NULL` until made.
    void *_Nullable context;
    /// The same context while the thread has a batch under way (collecting or
    /// flushing), else `NULL`.
    void *_Nullable batch;
    /// The thread's dependency-tracking session (a recorder on the stack of the code
    /// that tracks) while it tracks, else `NULL`.
    void *_Nullable session;
    /// Whether this is the process's initial thread (the one that ran `main`): 0 until
    /// asked, then 1 if it is, 2 if not. A thread is or is not for its whole life.
    int8_t initialThread;
} BindingsThreadState;

extern _Thread_local BindingsThreadState bindings_thread_state;

static inline __attribute__((always_inline)) void *_Nullable bindings_thread_context(void) {
    return bindings_thread_state.context;
}

static inline __attribute__((always_inline)) void bindings_set_thread_context(void *_Nullable context) {
    bindings_thread_state.context = context;
}

static inline __attribute__((always_inline)) void *_Nullable bindings_thread_batch(void) {
    return bindings_thread_state.batch;
}

static inline __attribute__((always_inline)) void bindings_set_thread_batch(void *_Nullable batch) {
    bindings_thread_state.batch = batch;
}

static inline __attribute__((always_inline)) void *_Nullable bindings_thread_session(void) {
    return bindings_thread_state.session;
}

static inline __attribute__((always_inline)) void bindings_set_thread_session(void *_Nullable session) {
    bindings_thread_state.session = session;
}

/// Finds out whether the current thread is the process's initial thread, and records it in
/// the thread's state (see `bindings_is_initial_thread`).
bool bindings_find_initial_thread(void);

/// Whether the current thread is the process's initial thread (the main thread): one load
/// of the thread's state once the first call found out (two system calls on Linux).
static inline __attribute__((always_inline)) bool bindings_is_initial_thread(void) {
    int8_t known = bindings_thread_state.initialThread;
    if (__builtin_expect(known != 0, 1)) return known == 1;
    return bindings_find_initial_thread();
}

/// An identifier of the current thread: the address of its state, which no other live
/// thread shares (a thread that starts after this one ends may get it again, as it may
/// get its `pthread_t`). Never 0.
static inline __attribute__((always_inline)) uintptr_t bindings_thread_id(void) {
    return (uintptr_t)&bindings_thread_state;
}

#endif
