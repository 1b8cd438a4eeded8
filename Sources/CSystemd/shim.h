// Umbrella header for Debian's libsystemd-dev (sd-bus). Only Sources/CBus includes it (and
// Benchmarks/GeoClueBenchmark's probe), for the types, constants and function signatures: the
// daemon does not link the library but opens it with dlopen when the GeoClue face first opens its
// bus (Sources/CBus); GeoClueBenchmark, which calls sd-bus itself, links it (Package.swift).
#if !__has_include(<systemd/sd-bus.h>)
#error "systemd/sd-bus.h not found: install Debian's libsystemd-dev (scripts/install-deps)"
#endif
#include <systemd/sd-bus.h>
