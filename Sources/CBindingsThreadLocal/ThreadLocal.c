#if defined(__linux__)
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>
#elif defined(__APPLE__)
#include <pthread.h>
#endif

#include "BindingsThreadLocal.h"

// Zero-initialised for every thread: no context, batch or session, and not yet known
// whether it is the initial thread.
_Thread_local BindingsThreadState bindings_thread_state;

bool bindings_find_initial_thread(void) {
#if defined(__linux__)
    // The initial thread's id is the process id. (A child made by `fork` from another
    // thread keeps that thread's "no": it then asks the main queue, see `MainThread`.)
    bool initial = (pid_t)syscall(SYS_gettid) == getpid();
#elif defined(__APPLE__)
    bool initial = pthread_main_np() != 0;
#else
    // Unknown here: `MainThread` then asks the main queue.
    bool initial = false;
#endif
    bindings_thread_state.initialThread = initial ? 1 : 2;
    return initial;
}
