// Umbrella header for Debian's libsystemd-dev (sd-bus). Only Sources/CBus includes it.
#include <systemd/sd-bus.h>
