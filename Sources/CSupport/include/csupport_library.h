// A shared library opened when it is first needed rather than linked, so that
// a daemon that never needs it never maps it (libmosquitto for MQTT clients,
// libgps for gpsd sources): the open, the table of functions, the message
// that names the package to install, and the once-per-process guard. The
// shims (Sources/CMQTT, Sources/CGPS) keep their own typed tables; this is
// the mechanism both use.
#ifndef CSUPPORT_LIBRARY_H
#define CSUPPORT_LIBRARY_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/// What a shim opens: `soname` (or another name given to `csupport_library_open`,
/// for checks), the Debian `package` that ships it and the `feature` that
/// needs it, for the message, and the `count` functions in `names`.
typedef struct csupport_library {
    const char *soname;
    const char *package;
    const char *feature;
    const char *const *names;
    size_t count;
} csupport_library;

/// For a shim's X-macro list of the functions it calls, `LIST(X)` with an
/// `X(name)` per function: `struct T { LIST(CSUPPORT_LIBRARY_FIELD) };` is its
/// table, one pointer per function typed from the header's declaration;
/// `{LIST(CSUPPORT_LIBRARY_NAME)}` the names to resolve; and, with `table`
/// pointing at the table, `symbols` the resolved pointers and `size_t index =
/// 0`, `LIST(CSUPPORT_LIBRARY_FILL)` fills the table in the same order.
#define CSUPPORT_LIBRARY_FIELD(name) __typeof__(&name) name;
#define CSUPPORT_LIBRARY_NAME(name) #name,
#define CSUPPORT_LIBRARY_FILL(name) table->name = (__typeof__(table->name))symbols[index++];

/// Opens `soname` (NULL: the library's own) with dlopen(RTLD_NOW | RTLD_LOCAL)
/// and resolves every name into `symbols` (`count` slots). Returns the handle,
/// or NULL with nothing left open and the reason in `message` (cut to
/// `capacity`, NUL-terminated): "<feature> needs <soname> (Debian package
/// <package>): <dlerror>".
void *csupport_library_open(const csupport_library *library, const char *soname, void **symbols, char *message,
                            size_t capacity);

/// Writes "<feature> needs <soname> (Debian package <package>)" and then the
/// printf-style rest into `message`: the first words of every failure to load.
void csupport_library_say(const csupport_library *library, const char *soname, char *message, size_t capacity,
                          const char *format, ...) __attribute__((format(printf, 5, 6)));

/// Runs `load` once per process, whichever thread comes first, under `lock`;
/// `*loaded` is set (release) after it returned 0. Returns 1 when this call
/// loaded it, 0 when it was loaded already, -1 when `load` failed (its message
/// in `message`): nothing is recorded then, so the next call tries again
/// (installing the package is enough).
int csupport_library_once(pthread_mutex_t *lock, bool *loaded, int (*load)(char *message, size_t capacity),
                          char *message, size_t capacity);

/// Whether `csupport_library_once` has loaded it (acquire).
bool csupport_library_is_loaded(const bool *loaded);

#endif
