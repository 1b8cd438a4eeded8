// Umbrella header for Debian's libsystemd-dev (sd-bus). Only Sources/CBus includes it (and Benchmarks/GeoClueBenchmark's probe).
#include <systemd/sd-bus.h>
