// Umbrella header for Debian's libsystemd-dev (sd-bus). Only Sources/CBus includes it, for the
// types, constants and function signatures: the library itself is not linked but opened with
// dlopen when the GeoClue face first opens its bus (Sources/CBus).
#if !__has_include(<systemd/sd-bus.h>)
#error "systemd/sd-bus.h not found: install Debian's libsystemd-dev (scripts/install-deps)"
#endif
#include <systemd/sd-bus.h>
