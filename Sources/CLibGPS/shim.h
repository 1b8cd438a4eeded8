// Umbrella header for Debian's libgps-dev. Only Sources/CGPS includes it, for
// the types, constants and function signatures: the library itself is not
// linked but opened with dlopen when a gpsd source first connects (Sources/CGPS).
#if !__has_include(<gps.h>)
#error "gps.h not found: install Debian's libgps-dev (scripts/install-deps)"
#endif
#include <gps.h>
