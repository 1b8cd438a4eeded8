// Umbrella header for Debian's libmosquitto-dev. Only Sources/CMQTT includes it,
// for the types, constants and function signatures: the library itself is not
// linked but opened with dlopen when a client first publishes (Sources/CMQTT).
#if !__has_include(<mosquitto.h>)
#error "mosquitto.h not found: install Debian's libmosquitto-dev (scripts/install-deps)"
#endif
#include <mosquitto.h>
