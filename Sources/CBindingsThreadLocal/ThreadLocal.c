#include "BindingsThreadLocal.h"

// Zero-initialised for every thread: no context, batch or session.
_Thread_local BindingsThreadState bindings_thread_state;
