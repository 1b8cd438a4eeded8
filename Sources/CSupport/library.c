// See include/csupport_library.h.
#define _GNU_SOURCE
#include "csupport_library.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void csupport_library_say(const csupport_library *library, const char *soname, char *message, size_t capacity,
                          const char *format, ...) {
    if (!message || capacity == 0) return;
    int used = snprintf(message, capacity, "%s needs %s (Debian package %s)", library->feature,
                        soname ? soname : library->soname, library->package);
    if (used < 0 || (size_t)used >= capacity) return;
    va_list args;
    va_start(args, format);
    vsnprintf(message + used, capacity - (size_t)used, format, args);
    va_end(args);
}

void *csupport_library_open(const csupport_library *library, const char *soname, void **symbols, char *message,
                            size_t capacity) {
    const char *name = soname ? soname : library->soname;
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        csupport_library_say(library, name, message, capacity, ": %s", why ? why : "cannot open it");
        return NULL;
    }
    for (size_t i = 0; i < library->count; i++) {
        dlerror();
        symbols[i] = dlsym(handle, library->names[i]);
        if (!symbols[i]) {
            const char *why = dlerror();
            if (why)
                csupport_library_say(library, name, message, capacity, ": %s", why);
            else
                csupport_library_say(library, name, message, capacity, ": no %s", library->names[i]);
            dlclose(handle);
            return NULL;
        }
    }
    return handle;
}

int csupport_library_once(pthread_mutex_t *lock, bool *loaded, int (*load)(char *message, size_t capacity),
                          char *message, size_t capacity) {
    if (__atomic_load_n(loaded, __ATOMIC_ACQUIRE)) return 0;
    pthread_mutex_lock(lock);
    int result = 0;
    if (!__atomic_load_n(loaded, __ATOMIC_RELAXED)) {
        if (load(message, capacity) == 0) {
            __atomic_store_n(loaded, true, __ATOMIC_RELEASE);
            result = 1;
        } else {
            result = -1;
        }
    }
    pthread_mutex_unlock(lock);
    return result;
}

bool csupport_library_is_loaded(const bool *loaded) { return __atomic_load_n(loaded, __ATOMIC_ACQUIRE); }
